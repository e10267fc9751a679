// Dig It Up end-game money, as the Python calculator counts it, in the rulebook's order: mission,
// chance cards, money tokens, set bonuses, bundle bonuses. Every number comes from the box data.
import { Problems, table } from "./results.js";

const sum = (numbers) => numbers.reduce((a, b) => a + b, 0);

/** The variant's rules (`variant_rules`): which cards, missions and tiles it plays with. */
export const variantOf = (box, id) => box.variant_rules.find((v) => v.id === id) || box.variant_rules[0];

/** A player's collection as the scoring steps and the missions read it. */
function collection(box, player) {
  const counts = Object.fromEntries(box.tiles.map((t) => [t.id, player.tiles?.[t.id] ?? 0]));
  for (const [id, n] of Object.entries(player.cards || {})) {
    const countsAs = box.cards.find((c) => c.id === id).counts_as;
    if (countsAs) counts[countsAs] += n;
  }
  const perSet = Object.fromEntries(box.sets.map((s) => [s.id, 0]));
  for (const t of box.tiles) perSet[t.set] += counts[t.id];
  // rulebook: a type whose count reaches its minimum forms a set with all its tiles
  const formed = Object.fromEntries(box.sets.map((s) => [s.id, perSet[s.id] >= s.bonus_by_count[0].min]));
  const treasureSets = [...new Set(box.tiles.filter((t) => t.treasure).map((t) => t.set))];
  return {
    counts, perSet, formed, treasureSets, tokens: player.tokens ?? 0,
    trinities: Math.min(...box.tiles.filter((t) => t.set === "bronzeware").map((t) => counts[t.id])),
    bundles: Math.floor(sum(treasureSets.filter((s) => !formed[s]).map((s) => perSet[s])) / box.bundle.size),
  };
}

// What a mission's goal measures (score.MEASURES), given the set it names. Closing Shop and Card
// Shark measure what happened during play: the player declares those.
const MEASURES = {
  count: (c, of) => c.perSet[of],
  fewest: (c) => Math.min(...c.treasureSets.map((s) => c.perSet[s])),
  trinities: (c) => c.trinities,
  tokens: (c) => c.tokens,
  bundles: (c) => c.bundles,
  // RULINGS: Specialist and Collector count treasure sets only
  largest_set: (c) => Math.max(0, ...c.treasureSets.filter((s) => c.formed[s]).map((s) => c.perSet[s])),
  sets: (c) => c.treasureSets.filter((s) => c.formed[s]).length,
};

/** Whether the counts achieve the mission, or null where only play decides it. */
export function judged(box, mission, player) {
  const goal = mission?.goal;
  if (!goal || mission.declared || !MEASURES[goal.measure]) return null;
  const value = MEASURES[goal.measure](collection(box, player), goal.of);
  return (goal.min ?? value) <= value && value <= (goal.max ?? value);
}

/** Whether the scoresheet's mission pays: as the counts decide, or as the player declares. */
function achieved(box, player) {
  const mission = player.mission || {};
  return judged(box, box.missions.find((m) => m.id === mission.id), player) ?? Boolean(mission.achieved);
}

// rulebook "Set bonuses": the last row whose minimum the count reaches
const setBonus = (set, n) => set.bonus_by_count.reduce((bonus, row) => (n >= row.min ? row.bonus : bonus), 0);

function standard(box, player) {
  const held = collection(box, player);
  const sets = Object.fromEntries(box.sets.map((s) => [s.id, setBonus(s, held.perSet[s.id])]));
  if (held.formed.bronzeware) sets.bronzeware += box.trinity_bonus * held.trinities;
  let cards = 0;
  for (const [id, n] of Object.entries(player.cards || {})) {
    const card = box.cards.find((c) => c.id === id);
    cards += (card.end_money || 0) * n;
    if (card.cancels_stone_set && n) cards -= sets.stone; // RULINGS: Insurance, in step 2
  }
  const mission = player.mission || {};
  const bonus = achieved(box, player) ? (box.missions.find((m) => m.id === mission.id)?.bonus ?? mission.bonus) : 0;
  return { mission: bonus, cards, tokens: held.tokens, sets, bundles: box.bundle.bonus * held.bundles };
}

function simplified(box, player) {
  // rulebook "Simplified variation": 4+ of a type is 10 ₩, every other treasure 1 ₩
  const { perSet, treasureSets, tokens } = collection(box, player);
  const rules = box.simplified;
  const sets = Object.fromEntries(box.sets.map((s) => [s.id, 0]));
  let loose = 0;
  for (const s of treasureSets) {
    if (perSet[s] >= rules.set_min) sets[s] = rules.set_bonus;
    else loose += perSet[s];
  }
  return { mission: 0, cards: 0, tokens, sets, bundles: rules.loose_tile * loose };
}

/** How many stones and treasures the variant's board holds. */
function boardLimits(box, variant) {
  const letters = variant.sites || box.sites.map((s) => s.id).join("");
  const sites = box.sites.filter((s) => letters.includes(s.id));
  return { stone: sum(sites.map((s) => s.stones)), treasure: sum(sites.map((s) => sum(Object.values(s.treasures)))) };
}

function check(box, sheet) {
  const variant = variantOf(box, sheet.variant);
  const problems = new Problems();
  sheet.players.forEach((player, i) => {
    const at = `players.${i}`;
    for (const [tile, n] of Object.entries(player.tiles || {})) problems.hold(tile === "stone" ? "stone" : "treasure", `${at}.tiles.${tile}`, n);
    if (variant.diamonds === false && player.tiles?.diamond) problems.add(`${at}.tiles.diamond`, "noDiamonds", { variant: variant.id });
    for (const [id, n] of Object.entries(player.cards || {})) {
      const field = `${at}.cards.${id}`;
      const card = box.cards.find((c) => c.id === id);
      problems.hold(id, field, n);
      if (!n) continue;
      if (!variant.cards) problems.add(field, "noCards", { variant: variant.id });
      else if (card.colour !== "orange") problems.add(field, "usedAtOnce", { card: id });
      else if (card.multi && !variant.multi) problems.add(field, "removed", { card: id, variant: variant.id });
    }
    const mission = player.mission;
    if (!mission) return;
    const kept = box.missions.find((m) => m.id === mission.id);
    if (!variant.missions) problems.add(`${at}.mission`, "noMissions", { variant: variant.id });
    else if (kept?.multi && !variant.multi) problems.add(`${at}.mission.id`, "removed", { mission: kept.id, variant: variant.id });
    else if (kept && (mission.achieved ?? achieved(box, player)) !== achieved(box, player)) {
      problems.add(`${at}.mission.achieved`, "contradicted", { mission: kept.id, achieved: achieved(box, player) });
    }
  });
  const limits = boardLimits(box, variant);
  for (const kind of ["stone", "treasure"]) {
    const held = problems.over(kind, limits[kind]);
    if (held) problems.limit(kind, "tilesOverBoard", { held, kind, most: limits[kind], variant: variant.id });
  }
  for (const card of box.cards) {
    const held = problems.over(card.id, card.count);
    if (held) problems.limit(card.id, "cardsOver", { held, card: card.id, most: card.count });
  }
  problems.done();
}

/** `sheet`: { variant?, players: [{ name, tiles, tokens, mission, cards }] }. */
export function score(box, sheet) {
  const variant = variantOf(box, sheet.variant).id;
  check(box, sheet);
  const players = sheet.players.map((p) => {
    const breakdown = variant === "simplified" ? simplified(box, p) : standard(box, p);
    const total = breakdown.mission + breakdown.cards + breakdown.tokens + sum(Object.values(breakdown.sets)) + breakdown.bundles;
    return { name: p.name, total, breakdown };
  });
  // RULINGS: no tie-break is printed; tied players share the win
  return table(box.id, players, { variant });
}
