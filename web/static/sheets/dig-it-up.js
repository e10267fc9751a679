// Dig It Up: tiles, money, the orange cards kept and a mission, as the chosen variant has them.
import { h, ids } from "../dom.js";
import { count, counts, variants, words } from "../sheet.js";

function variantOf(box, id) {
  const all = variants(box);
  return all.find((v) => v.id === id) || all[0] || {};
}

export function groups(box, tally) {
  const variant = variantOf(box, tally.variant);
  // A variant flag named after a tile type's plural (`diamonds: false`) takes that type out.
  const removed = (type) => Boolean(type) && variant[`${type}s`] === false;
  const gone = (item) => item.multi && variant.multi === false;
  const tileWords = new Set(box.tiles.map((t) => words(t.id)));
  const all = [
    { id: "tiles", legend: "Tiles",
      rows: box.tiles.filter((t) => !removed(t.id)).map((t) => count(`tiles.${t.id}`, words(t.id))) },
    { id: "money", legend: "Money", rows: [count("tokens", "tokens", { min: null })] },
  ];
  if (variant.cards !== false) {
    // Only orange cards are kept to the end; a card named like a tile says "card".
    const kept = (box.cards || []).filter((c) => c.colour === "orange" && !gone(c) && !removed(c.counts_as));
    const cardWord = (c) => {
      const word = c.name.toLowerCase();
      return tileWords.has(word) ? `${word} card` : word;
    };
    if (kept.length) {
      all.push({ id: "cards", legend: "Cards kept",
                 rows: kept.map((c) => count(`cards.${c.id}`, cardWord(c), { hint: c.effect })) });
    }
  }
  const missions = (box.missions || []).filter((m) => !gone(m));
  if (variant.missions !== false && missions.length) {
    all.push({ id: "mission", legend: "Mission", rows: [
      { kind: "mission", key: "mission", word: "mission", path: "mission", options: missions },
      { kind: "check", key: "achieved", word: "mission achieved" },
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
        // A mission the variant leaves out is kept on the phone but not scored.
        const kept = missions.some((m) => m.id === p.values.mission);
        out.mission = kept ? { id: p.values.mission, achieved: Boolean(p.values.achieved) } : null;
      }
      return out;
    }),
  };
}

export function settings(box, tally, changed) {
  const all = variants(box);
  tally.variant ??= all[0]?.id;
  if (!all.length) return null;
  const id = ids.setting("variant");
  return h("div", { class: "field" },
    h("label", { for: id, text: "Variant" }),
    h("select", { id, "aria-describedby": ids.msg("variant"), onchange: (e) => {
      tally.variant = e.target.value;
      changed(true);
    } }, all.map((v) => h("option", { value: v.id, text: v.name, selected: v.id === tally.variant }))),
    h("p", { id: ids.msg("variant"), class: "msg" }));
}
