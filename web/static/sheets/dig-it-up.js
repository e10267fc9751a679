// Dig It Up: tiles, money, the orange cards kept that score, and a mission, as the chosen variant
// has them. A mission the counts decide is judged from them; only play decides Closing Shop and
// Card Shark, so for those the player says, unless the counts prove it (five cards kept).
import { h, ids } from "../dom.js";
import { format, item, minus, t } from "../i18n.js";
import { collection, disprovenBy, hazardOf, judged, onBoard, provenBy, variantOf } from "../scoring/dig-it-up.js";
import { count, counts, setting, variants } from "../sheet.js";
import { entered } from "../store.js";

const condition = (mission) => format(item("condition", mission.id, mission.condition), mission.goal);
// Money tokens go below zero only by Hazardous Area's −5 ₩ tokens, four in the box (−20 ₩ at
// the least, as the calculator judges); the calculator takes a face value up to 999 ₩
// (api/schemas/dig_it_up.py, MAX_TOKENS), and the page no more.
const MOST_TOKENS = 999;
const leastTokens = (box, variant) => {
  const hazard = hazardOf(box, variant);
  return hazard ? hazard.token * hazard.count : 0;
};

export function groups(box, tally) {
  const variant = variantOf(box, tally.variant);
  const gone = (thing) => thing.multi && !variant.multi;
  // What a player holds stays asked for in a variant that lacks it, refused there until it is
  // taken off: a total never leaves it out unsaid, and the variant it was counted in finds it.
  const held = (key) => tally.players.some((p) => p.values[key] && Number(p.values[key]) !== 0);
  // No player holds more of a type than the table's board: a type it lacks is not asked for.
  const most = onBoard(box, variant, tally.players.length);
  const all = [
    { id: "tiles", legend: t("tiles"), rows: box.tiles.filter((tile) => most[tile.id] || held(`tiles.${tile.id}`))
      .map((tile) => count(`tiles.${tile.id}`, item("tile", tile.id, tile.name), { max: most[tile.id] || null })) },
    // RULINGS §1: without chance cards, money comes from +2 tiles alone, a 2 ₩ token each.
    { id: "money", legend: t("money"), rows: [count("tokens", t("moneyTokens", { unit: box.currency }), variant.cards
      ? { min: leastTokens(box, variant), max: MOST_TOKENS } : { max: MOST_TOKENS, step: box.marks.plus_two_value })] },
  ];
  // Only the orange cards kept to the end that change the money (Ancient Map and Lucky Charm do not).
  const kept = box.cards.filter((c) => held(`cards.${c.id}`) || (variant.cards && c.colour === "orange" && !gone(c)
    && (c.end_money || c.cancels_stone_set || (c.counts_as && most[c.counts_as]))));
  if (kept.length) {
    all.push({ id: "cards", legend: t("cardsKept"), rows: kept.map((c) =>
      count(`cards.${c.id}`, item("card", c.id, c.name), { max: c.count, hint: format(item("effect", c.id, c.effect), c) })) });
  }
  const chosenBy = (m) => tally.players.some((p) => p.values.mission === m.id);
  const missions = box.missions.filter((m) => (variant.missions && !gone(m)) || chosenBy(m));
  if (missions.length) {
    const chosen = (player) => missions.find((m) => m.id === player.values.mission);
    // A mission only play decides is still achieved where the counts prove it (five cards kept
    // were drawn), and missed where they rule it out (fewer than five ★ tiles to draw them): no
    // tick is asked for, and none is sent that they contradict.
    const verdict = (player) => chosen(player) && (judged(box, chosen(player), counts(player, all))
      ?? (provenBy(box, chosen(player), counts(player, all)) || (disprovenBy(box, chosen(player), counts(player, all)) ? false : null)));
    all.push({ id: "mission", legend: t("mission"), rows: [
      // A tick given for one mission says nothing of the next chosen: it is taken off.
      { kind: "mission", key: "mission", word: t("missionWord"), path: "mission", options: missions, condition, clears: "achieved",
        status: (player) => verdict(player) != null && { text: t(verdict(player) ? "missionMet" : "missionMissed"), good: verdict(player) } },
      { kind: "check", key: "achieved", word: t("missionAchieved"), path: "mission.achieved",
        shown: (player) => Boolean(chosen(player)) && verdict(player) == null },
    ] });
  }
  return all;
}

export function request(box, tally, groups) {
  const missions = groups.find((g) => g.id === "mission")?.rows[0].options;
  return {
    variant: variantOf(box, tally.variant).id,
    players: tally.players.map((p) => {
      const out = { name: p.name, ...counts(p, groups) };
      if (missions) {
        // A mission the counts decide goes without a word on whether it was achieved.
        const mission = missions.find((m) => m.id === p.values.mission);
        out.mission = mission ? { id: mission.id } : null;
        if (mission && judged(box, mission, out) == null) {
          out.mission.achieved = provenBy(box, mission, out) || (Boolean(p.values.achieved) && !disprovenBy(box, mission, out));
        }
      }
      return out;
    }),
  };
}

/** A player's money in the rulebook's five steps and words ("Calculating money"): the mission by
 * name, the chance cards kept, the money tokens, each set formed with its tiles (the Trinity Prize
 * apart), the bundles and the tiles left over; the simplified game's sets and tiles in no set.
 * `player` is what the calculator was sent for the player, `request` the whole table. */
export function breakdown(box, parts, player, request) {
  const held = collection(box, player);
  const tiles = (n) => t("heldTiles", { n });
  if (variantOf(box, request.variant).id === "simplified") {
    const sets = held.treasureSets.filter((s) => parts.sets[s]);
    const loose = held.treasureSets.filter((s) => !parts.sets[s]).reduce((n, s) => n + held.perSet[s], 0);
    return [
      [t("part.tokens"), minus(parts.tokens)],
      ...sets.map((s) => [t("part.set", { set: item("set", s), tiles: tiles(held.perSet[s]) }), minus(parts.sets[s])]),
      [t("part.inNoSet", { tiles: tiles(loose), each: box.simplified.loose_tile }), minus(parts.bundles)],
    ];
  }
  const mission = box.missions.find((m) => m.id === player.mission?.id);
  // A card by the play page's name for it (an Ancient Map kept), else the box's; one counted as a
  // tile says so (its money is its set's).
  const cards = Object.entries(player.cards || {}).filter(([, n]) => n).map(([id, n]) => {
    const card = box.cards.find((c) => c.id === id);
    const as = card.counts_as ? ` ${t("part.asTile", { tile: item("tile", card.counts_as) })}` : "";
    return `${item("card", id, item("chance", id, card.name))} ×${n}${as}`;
  });
  const trinity = held.formed.bronzeware ? box.trinity_bonus * held.trinities : 0;
  const loose = held.treasureSets.filter((s) => !held.formed[s]).reduce((n, s) => n + held.perSet[s], 0);
  // RULINGS: Insurance makes the stone set count 0. The calculator adds back what the set cost
  // among the cards' money; read so, Insurance looked worth money. Said as the table counts it:
  // the stone set at 0, by Insurance, and the cards at what they pay.
  const insurance = box.cards.find((c) => c.cancels_stone_set && player.cards?.[c.id]);
  const cancelled = insurance && held.formed.stone ? parts.sets.stone : 0;
  const setLine = (s) => (s.id === "stone" && insurance && held.formed.stone
    ? [t("part.setCancelled", { set: item("set", s.id), tiles: tiles(held.perSet[s.id]),
      card: item("card", insurance.id, item("chance", insurance.id, insurance.name)) }), "0"]
    : [t("part.set", { set: item("set", s.id), tiles: tiles(held.perSet[s.id]) }), minus(parts.sets[s.id] - (s.id === "bronzeware" ? trinity : 0))]);
  return [
    [player.mission ? t("part.missionOf", { mission: mission ? item("mission", mission.id, mission.name) : t(player.mission.id === null ? "missionFaceDown" : "missionByBonus"),
      verdict: t(parts.mission ? "achieved" : "notAchieved") }) : `${t("part.mission")}: ${t("none")}`, minus(parts.mission)],
    [`${t("part.cards")}: ${cards.join(", ") || t("none")}`, minus(parts.cards + cancelled)],
    [t("part.tokens"), minus(parts.tokens)],
    // rulebook: the bronzeware set bonus "includes the Trinity Prize", said on a line of its own
    ...box.sets.filter((s) => held.formed[s.id]).flatMap((s) => [
      setLine(s),
      ...(s.id === "bronzeware" && trinity ? [[t("part.trinity", { n: held.trinities, bonus: box.trinity_bonus }), minus(trinity)]] : [])]),
    [t("part.bundlesOf", { n: Math.floor(loose / box.bundle.size), size: box.bundle.size }), minus(parts.bundles)],
    ...(loose % box.bundle.size ? [[t("part.leftOver", { tiles: tiles(loose % box.bundle.size) }), "0"]] : []),
  ];
}

export function settings(box, tally, changed) {
  const all = variants(box);
  if (!all.length) return null;
  const n = tally.players.length;
  const fits = (v) => !v.players || (v.players[0] <= n && n <= v.players[1]);
  const name = (v) => item("variant", v.id, v.name);
  // The table's size chooses the variant until the players choose one or start counting.
  const suggested = all.find(fits);
  if (!tally.variantChosen && !entered(tally)) tally.variant = (suggested || all[0]).id;
  tally.variant = (all.find((v) => v.id === tally.variant) || all[0]).id;
  const current = all.find((v) => v.id === tally.variant);
  const choose = (id) => {
    Object.assign(tally, { variant: id, variantChosen: true });
    setting(tally, ["variant", "variantChosen"]);
    changed(true);
  };
  const id = ids.setting("variant");
  const misfit = n >= box.players.min && !fits(current);
  return h("div", { class: "field" },
    h("label", { for: id, text: t("variant") }),
    h("select", { id, "aria-describedby": `${ids.hint(id)} ${ids.msg("variant")}`, onchange: (e) => choose(e.target.value) },
      all.map((v) => h("option", { value: v.id, text: name(v), selected: v === current }))),
    h("p", { id: ids.hint(id), class: misfit ? "warn" : "muted", role: misfit ? "status" : null, text: misfit
      ? t("variantMisfit", { variant: name(current), low: current.players[0], high: current.players[1], n })
      : current.players && t("variantFor", { low: current.players[0], high: current.players[1] }) }),
    misfit && suggested ? h("button", { type: "button", text: t("useVariant", { variant: name(suggested) }), onclick: () => choose(suggested.id) }) : null,
    h("p", { id: ids.msg("variant"), class: "msg" }));
}
