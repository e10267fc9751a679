// Dig It Up end-game money, as the Python calculator counts it, in the rulebook's order: mission,
// chance cards, money tokens, set bonuses, bundle bonuses. Every number comes from the box data.
import { Problems, table } from "./results.js";

const sum = (numbers) => numbers.reduce((a, b) => a + b, 0);

/** The variant's rules (`variant_rules`): which cards, missions and tiles it plays with. */
export const variantOf = (box, id) => box.variant_rules.find((v) => v.id === id) || box.variant_rules[0];

/** A player's collection as the scoring steps and the missions read it: counts by tile and by
 * set (kept cards that count as a tile included), the sets formed, trinities and bundles; of
 * play, unknown to a scoresheet, the cards kept count as drawn (they were) and no site as closed. */
export function collection(box, player) {
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
    counts, perSet, formed, treasureSets, tokens: player.tokens ?? 0, closed: 0,
    drawn: sum(Object.values(player.cards || {})),
    // the ★ tiles held: a chance card is drawn only for one dug, and dug tiles stay (R)
    stars: sum(box.marks.star.map((tile) => player.tiles?.[tile] ?? 0)),
    trinities: Math.min(...box.tiles.filter((t) => t.set === "bronzeware").map((t) => counts[t.id])),
    bundles: Math.floor(sum(treasureSets.filter((s) => !formed[s]).map((s) => perSet[s])) / box.bundle.size),
  };
}

// What a mission's goal measures (score.MEASURES), given the set it names. Closing Shop and Card
// Shark measure what happened during play: the player declares those, unless the counts prove them.
const MEASURES = {
  sites_closed: (c) => c.closed,
  cards_drawn: (c) => c.drawn,
  count: (c, of) => c.perSet[of],
  fewest: (c) => Math.min(...c.treasureSets.map((s) => c.perSet[s])),
  trinities: (c) => c.trinities,
  tokens: (c) => c.tokens,
  bundles: (c) => c.bundles,
  // RULINGS: Specialist and Collector count treasure sets only
  largest_set: (c) => Math.max(0, ...c.treasureSets.filter((s) => c.formed[s]).map((s) => c.perSet[s])),
  sets: (c) => c.treasureSets.filter((s) => c.formed[s]).length,
};

// The most of such a measure a scoresheet allows (score.AT_MOST): a card a ★ tile held.
const AT_MOST = { cards_drawn: (c) => c.stars };

/** Whether the counts achieve the mission's goal. */
function proven(box, mission, player) {
  const goal = mission.goal;
  const value = MEASURES[goal.measure](collection(box, player), goal.of);
  return (goal.min ?? value) <= value && value <= (goal.max ?? value);
}

/** Whether the counts prove the mission achieved, even one only play decides (five cards kept
 * were drawn: Card Shark). */
export const provenBy = (box, mission, player) => Boolean(mission?.goal && MEASURES[mission.goal.measure] && proven(box, mission, player));

/** Whether the counts rule out a mission only play decides (Card Shark with fewer than five ★
 * tiles held: five cards were never drawn). */
export const disprovenBy = (box, mission, player) => Boolean(mission?.goal && AT_MOST[mission.goal.measure]
  && AT_MOST[mission.goal.measure](collection(box, player)) < (mission.goal.min ?? 0));

/** Whether the counts achieve the mission, or null where only play decides it. */
export function judged(box, mission, player) {
  if (!mission?.goal || mission.declared || !MEASURES[mission.goal.measure]) return null;
  return proven(box, mission, player);
}

/** Whether the scoresheet's mission pays: as the counts decide, or as the player declares where
 * they cannot, unless the counts prove even that one (five cards kept prove Card Shark). */
function achieved(box, player) {
  const mission = player.mission || {};
  const kept = box.missions.find((m) => m.id === mission.id);
  if (!kept?.goal || !MEASURES[kept.goal.measure]) return Boolean(mission.achieved);
  return proven(box, kept, player) || (kept.declared && Boolean(mission.achieved) && !disprovenBy(box, kept, player));
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

/** The sites a table of `players` plays on, how many abandoned end the game, and `players` where
 * its size chose them: the simplified game's board is the table size's (`boards`); a size no
 * board is for (one player's sheet) may hold what both boards hold. */
function boardOf(box, variant, players) {
  if (variant.sites != null) return { sites: variant.sites, ends: variant.abandon_limit, players: null };
  const board = box.variant_rules.find((v) => v.id === variant.boards?.[players]);
  return { sites: board?.sites ?? box.sites.map((s) => s.id).join(""), players: board ? players : null,
    ends: board?.abandon_limit ?? Math.max(...box.variant_rules.map((v) => v.abandon_limit ?? 0)) };
}

/** How many tiles of each type the board of a table of `players` holds (0: none on it). */
export function onBoard(box, variant, players) {
  const held = Object.fromEntries(box.tiles.map((t) => [t.id, 0]));
  const stone = box.tiles.find((t) => !t.treasure).id;
  const { sites } = boardOf(box, variant, players);
  for (const site of box.sites.filter((s) => sites.includes(s.id))) {
    held[stone] += site.stones;
    for (const [tile, n] of Object.entries(site.treasures)) held[tile] += n;
  }
  return held;
}

/** How many tiles a table of `players` can hold at most (box.diggable): a site abandoned by a dig
 * gives all but its last tile, any other all but two. */
function diggable(box, variant, players) {
  const { sites, ends } = boardOf(box, variant, players);
  const dug = box.sites.filter((s) => sites.includes(s.id));
  return sum(dug.map((s) => s.stones + sum(Object.values(s.treasures)) - 2)) + Math.min(ends, dug.length);
}

/** How many +2 tiles the board of a table of `players` holds: one on each site with the tile. */
function plusTwoTiles(box, variant, players) {
  const { sites } = boardOf(box, variant, players);
  return box.sites.filter((s) => sites.includes(s.id) && s.treasures[box.marks.plus_two]).length;
}

// The variant's chance cards that give money (box.money_cards).
const moneyCards = (box, variant) => (variant.cards ? box.cards.filter((c) => (variant.multi || !c.multi) && Math.max(c.gain ?? 0, c.token ?? 0) > 0) : []);

const DEBT = "tokens below zero"; // a limit across the table: the −5 ₩ tokens the money takes
const DUG = "tiles dug"; // and another: every tile of the board's sites but each site's last

/** The card whose token takes money away (Hazardous Area), where the variant plays it: money goes
 * below zero only by its tokens (score.hazard). */
export const hazardOf = (box, variant) => (variant.cards ? box.cards.find((c) => (c.token ?? 0) < 0 && (variant.multi || !c.multi)) : null);

function check(box, sheet) {
  const variant = variantOf(box, sheet.variant);
  const problems = new Problems();
  const most = onBoard(box, variant, sheet.players.length);
  // The game as a refusal names it: "Simplified game for 2 players" where the table's size chose the board.
  const game = { variant: variant.id, players: boardOf(box, variant, sheet.players.length).players };
  // RULINGS §1 "simplified": without chance cards, money tokens come from +2 tiles alone.
  const plusTwo = variant.cards ? 0 : box.marks.plus_two_value;
  const hazard = hazardOf(box, variant);
  sheet.players.forEach((player, i) => {
    const at = `players.${i}`;
    const tokens = player.tokens ?? 0;
    const marked = player.tiles?.[box.marks.plus_two] ?? 0; // a +2 tile is a gold tile its player keeps
    if (plusTwo && (tokens < 0 || tokens % plusTwo)) problems.add(`${at}.tokens`, "tokensNotPlusTwo", { variant: variant.id, each: plusTwo, tokens });
    else if (plusTwo && tokens > plusTwo * marked) problems.add(`${at}.tokens`, "tokensOverGold", { tile: box.marks.plus_two, marked, most: plusTwo * marked, tokens });
    else if (plusTwo || tokens > 0) problems.hold("tokens", `${at}.tokens`, tokens);
    else if (tokens < 0 && hazard) {
      // Money below zero is Hazardous Area's −5 ₩ tokens (the purse never goes below zero).
      const needed = Math.ceil(-tokens / -hazard.token);
      if (needed > hazard.count) problems.add(`${at}.tokens`, "tokensBelowHazards", { card: hazard.id, each: -hazard.token, count: hazard.count, least: hazard.token * hazard.count, tokens });
      else problems.hold(DEBT, `${at}.tokens`, needed);
    }
    const dug = sum(Object.values(player.tiles || {}));
    if (dug) problems.hold(DUG, `${at}.tiles`, dug);
    for (const [tile, n] of Object.entries(player.tiles || {})) {
      problems.hold(tile, `${at}.tiles.${tile}`, n);
      if (n && !most[tile]) problems.add(`${at}.tiles.${tile}`, "noTiles", { tile, ...game }); // 2–3 players: no diamonds
    }
    const keepable = [];
    for (const [id, n] of Object.entries(player.cards || {})) {
      const field = `${at}.cards.${id}`;
      const card = box.cards.find((c) => c.id === id);
      problems.hold(id, field, n);
      if (!n) continue;
      if (!variant.cards) problems.add(field, "noCards", { variant: variant.id });
      else if (card.colour !== "orange") problems.add(field, "usedAtOnce", { card: id });
      else if (card.multi && !variant.multi) problems.add(field, "removed", { card: id, variant: variant.id });
      else keepable.push([field, n]);
    }
    // A chance card is drawn only for a ★ tile dug, one a tile: no more cards kept than ★ tiles held.
    const keptCards = sum(keepable.map(([, n]) => n));
    const { stars } = collection(box, player);
    if (keptCards > stars) for (const [field] of keepable) problems.add(field, "cardsOverStars", { stars, kept: keptCards, tiles: box.marks.star });
    const mission = player.mission;
    if (!mission) return;
    const kept = box.missions.find((m) => m.id === mission.id);
    if (variant.missions && kept) problems.hold(`mission:${kept.id}`, `${at}.mission.id`);
    if (!variant.missions) problems.add(`${at}.mission`, "noMissions", { variant: variant.id });
    else if (kept?.multi && !variant.multi) problems.add(`${at}.mission.id`, "removed", { mission: kept.id, variant: variant.id });
    // API.md: left out only where the counts decide (five cards kept prove Card Shark)
    else if (kept?.declared && mission.achieved == null && !provenBy(box, kept, player)) problems.add(`${at}.mission.achieved`, "sayAchieved", { mission: kept.id });
    else if (kept && (mission.achieved ?? achieved(box, player)) !== achieved(box, player)) {
      const ruledOut = mission.achieved && disprovenBy(box, kept, player);
      problems.add(`${at}.mission.achieved`, "contradicted", { mission: kept.id, achieved: achieved(box, player), ...(ruledOut && { stars: collection(box, player).stars }) });
    }
  });
  for (const [tile, limit] of Object.entries(most)) {
    const held = limit && problems.over(tile, limit);
    if (held) problems.limit(tile, "tilesOverBoard", { held, tile, most: limit, ...game });
  }
  const diggableMost = diggable(box, variant, sheet.players.length);
  const dug = problems.over(DUG, diggableMost);
  if (dug) problems.limit(DUG, "tilesOverSites", { held: dug, most: diggableMost, ends: boardOf(box, variant, sheet.players.length).ends, ...game });
  if (plusTwo) {
    const tiles = plusTwoTiles(box, variant, sheet.players.length);
    const held = problems.over("tokens", plusTwo * tiles);
    if (held) problems.limit("tokens", "tokensOverBoard", { held, tiles, most: plusTwo * tiles, ...game });
  } else {
    // RULINGS §1 "Money" (box.money_in_play): a Thief moves money, never makes it
    const cards = moneyCards(box, variant);
    const money = box.marks.plus_two_value * plusTwoTiles(box, variant, sheet.players.length)
      + sum(cards.map((c) => c.count * Math.max(c.gain ?? 0, c.token ?? 0)));
    const held = problems.over("tokens", money);
    if (held) problems.limit("tokens", "moneyOver", { held, most: money, cards: cards.map((c) => c.id), ...game });
  }
  const debt = hazard && problems.over(DEBT, hazard.count);
  if (debt) problems.limit(DEBT, "hazardsOver", { held: debt, card: hazard.id, each: -hazard.token, most: hazard.count });
  for (const card of box.cards) {
    const held = problems.over(card.id, card.count);
    if (held) problems.limit(card.id, "cardsOver", { held, card: card.id, most: card.count });
  }
  for (const kept of box.missions) { // each mission is one card of the box
    const held = problems.over(`mission:${kept.id}`, 1);
    if (held) problems.limit(`mission:${kept.id}`, "missionsOver", { held, mission: kept.id });
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
