// Digging for Dinos: each dinosaur's skeleton, a count for each position (one tile from each era
// at the most), sent to the calculator as the list of positions held.
import { count, rowNumbers } from "../sheet.js";

export const groups = (box) => box.roster.map((d) => ({
  id: d.id, legend: d.name, path: `tiles.${d.id}`, skeleton: true, listed: true,
  rows: d.values.map((value, i) => count(`tiles.${d.id}.${i + 1}`, `${d.name.toLowerCase()} ${i + 1}`, {
    lead: `${d.name.toLowerCase()} `, short: String(i + 1), max: box.eras, path: null, hint: `${value}`,
  })),
}));

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
