// DIG end-game points, as the Python calculator counts them: dropped bones times their bowl's
// place.
import { Problems, table } from "./results.js";

function check(box, sheet) {
  const problems = new Problems();
  const { bowls } = sheet;
  if ([...bowls].sort().join() !== [...box.colours].sort().join()) {
    problems.add("bowls", "bowls", { missing: box.colours.filter((c) => !bowls.includes(c)) });
  }
  sheet.players.forEach((player, i) => {
    for (const [colour, n] of Object.entries(player.dropped || {})) problems.hold(colour, `players.${i}.dropped.${colour}`, n);
  });
  for (const colour of box.colours) {
    const held = problems.over(colour, box.bones_per_colour);
    if (held) problems.limit(colour, "bonesOver", { held, colour, most: box.bones_per_colour });
  }
  problems.done();
}

/** `sheet`: { bowls: [5 colours, nearest the Doghouse first], players: [{ name, dropped }] }. */
export function score(box, sheet) {
  check(box, sheet);
  const value = Object.fromEntries(sheet.bowls.map((colour, i) => [colour, box.bowl_points[i]]));
  const players = sheet.players.map((p) => {
    const breakdown = {};
    for (const c of box.colours) {
      const bones = p.dropped?.[c] ?? 0;
      breakdown[c] = { bones, value: value[c], points: bones * value[c] };
    }
    return { name: p.name, total: Object.values(breakdown).reduce((sum, b) => sum + b.points, 0), breakdown };
  });
  // rulebook: most 5-point bones, then 4-point, and so on
  const key = (p) => sheet.bowls.map((c) => p.breakdown[c].bones);
  return table(box.id, players, { variant: sheet.variant ?? box.default_variant }, {
    key, rule: "Most 5-point bones, then 4-point, 3-point, 2-point, 1-point.",
    describe: (p) => key(p).map((n, i) => `${n}×${box.bowl_points[i]}`).join(", "),
  });
}
