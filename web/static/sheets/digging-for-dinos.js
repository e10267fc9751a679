// Digging for Dinos: each dinosaur's skeleton, a count for each position (one tile from each era
// at the most), sent to the calculator as the list of positions held.
import { item, minus, t } from "../i18n.js";
import { count, rowNumbers } from "../sheet.js";

export const groups = (box) => box.roster.map((d) => {
  const name = item("dinosaur", d.id, d.name);
  return {
    id: d.id, legend: name, path: `tiles.${d.id}`, skeleton: true, listed: true, value: d.set_value,
    rows: d.values.map((value, i) => count(`tiles.${d.id}.${i + 1}`, `${name.toLowerCase()} ${i + 1}`, {
      lead: `${name.toLowerCase()} `, short: String(i + 1), max: box.eras, path: null, hint: `${value}`,
    })),
  };
});

export const request = (box, tally, groups) => ({
  players: tally.players.map((p) => {
    const tiles = {};
    for (const group of groups) {
      // A position held n times (tiles from n eras) is listed n times.
      const held = rowNumbers(p, group);
      if (held.length) tiles[group.id] = held;
    }
    return { name: p.name, tiles };
  }),
});

/** What the tie-break compares (RULINGS: the largest completed dinosaur, then the next…). */
export const tieFigures = (box, parts) => `${t("part.completed")}: ${[...parts.completed].sort((a, b) => b.value - a.value)
  .map((c) => `${item("dinosaur", c.dinosaur)} ${c.value}`).join(", ") || t("none")}`;

export const breakdown = (box, parts) => [
  [t("part.completed"), parts.completed.map((c) => `${item("dinosaur", c.dinosaur)} ${c.value}`).join(", ") || t("none")],
  [t("part.loose"), minus(parts.loose)],
];
