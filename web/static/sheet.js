// Each game's scoresheet, drawn from its box data (GET /api/v1/games/{game}), and the calculator
// request it becomes (POST /api/v1/games/{game}/score, shared/API.md). The page knows the shape of
// each request; the items, names, limits and rules all come from the server.

export const words = (id) => String(id).replaceAll("_", " ");

/** A count as the calculator takes it: an empty field is 0; anything else goes as typed, so the
 * server's own message explains a count it refuses. */
export const number = (raw) => (raw === "" || raw == null ? 0 : Number(raw));

/** The variants with what each changes: `variant_rules` beside the ids, or the ids alone. */
export function variants(box) {
  const rules = box.variant_rules || [];
  return (box.variants || [])
    .map((v) => (typeof v === "string" ? { id: v } : v))
    .filter((v) => /^[a-z][a-z0-9_-]*$/.test(v.id)) // an id the calculator could take
    .map((v) => ({ name: words(v.id), ...v, ...rules.find((r) => r.id === v.id) }));
}

function variantOf(box, id) {
  const all = variants(box);
  return all.find((v) => v.id === id) || all[0] || {};
}

/** A count field: `key` is where it goes in the player's request, `word` names it ("gold"). */
const count = (key, word, extra = {}) => ({ key, word, path: key, min: 0, ...extra });

function put(target, key, value) {
  const parts = key.split(".");
  const last = parts.pop();
  let at = target;
  for (const part of parts) at = at[part] ??= {};
  at[last] = value;
}

function counts(player, groups) {
  const out = {};
  for (const group of groups) {
    for (const row of group.rows) {
      if (!row.kind) put(out, row.key, number(player.values[row.key]));
    }
  }
  return out;
}

const digItUp = {
  settings: "variant",
  groups(box, tally) {
    const variant = variantOf(box, tally.variant);
    // A variant flag named after a tile type's plural (`diamonds: false`) takes that type out.
    const removed = (type) => Boolean(type) && variant[`${type}s`] === false;
    const gone = (item) => item.multi && variant.multi === false;
    const tileWords = new Set(box.tiles.map((t) => words(t.id)));
    const groups = [
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
        groups.push({ id: "cards", legend: "Cards kept",
                      rows: kept.map((c) => count(`cards.${c.id}`, cardWord(c), { hint: c.effect })) });
      }
    }
    const missions = (box.missions || []).filter((m) => !gone(m));
    if (variant.missions !== false && missions.length) {
      groups.push({ id: "mission", legend: "Mission", rows: [
        { kind: "mission", key: "mission", word: "mission", path: "mission", options: missions },
        { kind: "check", key: "achieved", word: "mission achieved" },
      ] });
    }
    return groups;
  },
  request(box, tally, groups) {
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
  },
};

const dig = {
  settings: "bowls",
  groups: (box) => [{
    id: "dropped", legend: "Bones dropped in bowls",
    rows: box.colours.map((c) => count(`dropped.${c}`, words(c), { max: box.bones_per_colour, swatch: c })),
  }],
  request: (box, tally, groups) => ({
    bowls: tally.bowls,
    players: tally.players.map((p) => ({ name: p.name, ...counts(p, groups) })),
  }),
};

const dinos = {
  groups: (box) => box.roster.map((d) => ({
    id: d.id, legend: d.name, path: `tiles.${d.id}`, skeleton: true,
    rows: d.values.map((value, i) => count(`tiles.${d.id}.${i + 1}`, `${d.name.toLowerCase()} ${i + 1}`, {
      lead: `${d.name.toLowerCase()} `, short: String(i + 1), max: box.eras, path: null, hint: `${value}`,
    })),
  })),
  request: (box, tally, groups) => ({
    players: tally.players.map((p) => {
      const tiles = {};
      for (const group of groups) {
        // A position held n times (tiles from n eras) is listed n times.
        const held = group.rows.flatMap((row, i) => Array(Math.max(0, number(p.values[row.key]) | 0)).fill(i + 1));
        if (held.length) tiles[group.id] = held;
      }
      return { name: p.name, tiles };
    }),
  }),
};

const SHEETS = { "dig-it-up": digItUp, dig, "digging-for-dinos": dinos };

/** The scoresheet of a game: its settings, its groups of fields and its request. */
export function sheetFor(box) {
  const sheet = SHEETS[box.id];
  if (!sheet) throw new Error(`The scorer does not know the game '${box.id}' yet.`);
  return { settings: null, ...sheet, unit: box.currency || "points" };
}

/** Which fields a message names ("6 green bones", "4 Stegosaurus 1 tiles"): the longest match
 * wins, so "Gold cards" names the gold card and not the gold tiles. */
export function rowsNamedIn(message, groups) {
  const text = message.toLowerCase();
  const hits = [];
  for (const group of groups) {
    for (const row of group.rows) {
      const word = row.word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const found = new RegExp(`(^|[^\\p{L}\\p{N}])${word}(?:e?s)?(?=$|[^\\p{L}\\p{N}])`, "u").exec(text);
      if (found) {
        const start = found.index + found[1].length;
        hits.push({ row, group, start, end: found.index + found[0].length });
      }
    }
  }
  return hits.filter((a) => !hits.some((b) => b !== a && b.start <= a.start && b.end >= a.end
                                              && b.end - b.start > a.end - a.start));
}
