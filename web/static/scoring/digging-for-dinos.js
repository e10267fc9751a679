// Digging for Dinos end-game points, as the Python calculator counts them: complete skeletons at
// their set value, every other tile at its left-hand value.
import { Problems, table } from "./results.js";

const sum = (numbers) => numbers.reduce((a, b) => a + b, 0);
/** RULINGS: complete sets = the least count over the dinosaur's positions (eras combine). */
const completeSets = ({ values }, positions) => Math.min(...values.map((_, i) => positions.filter((held) => held === i + 1).length));

function check(box, sheet, roster) {
  const problems = new Problems();
  sheet.players.forEach((player, i) => {
    for (const [id, positions] of Object.entries(player.tiles || {})) {
      const dinosaur = roster.get(id);
      if (!dinosaur) {
        problems.add(`players.${i}.tiles.${id}`, "noDinosaur", { id });
        continue;
      }
      positions.forEach((position, j) => {
        const field = `players.${i}.tiles.${id}.${j}`;
        if (!(position >= 1 && position <= dinosaur.values.length)) {
          problems.add(field, "noPosition", { id, position, size: dinosaur.values.length });
        }
        problems.hold(`${id} ${position}`, field);
      });
    }
    // Rulebook "End Game": a player's fourth dinosaur ends the game; each player then takes one
    // more turn at most, and the tiles under their paleontologists (score.most_completed).
    const completed = Object.entries(player.tiles || {}).filter(([id]) => roster.has(id))
      .reduce((n, [id, positions]) => n + completeSets(roster.get(id), positions), 0);
    const most = box.dinosaurs_to_end + box.tokens.length;
    if (completed > most) problems.add(`players.${i}.tiles`, "completedOver", { completed, most, end: box.dinosaurs_to_end });
  });
  for (const kind of problems.held.keys()) {
    const held = problems.over(kind, box.eras);
    const [id, position] = kind.split(" ");
    if (held) problems.limit(kind, "tilesOver", { held, id, position, eras: box.eras });
  }
  problems.done();
}

/** `sheet`: { roster?, players: [{ name, tiles: { dinosaur: [positions held] } }] }. */
export function score(box, sheet) {
  const roster = new Map((sheet.roster ?? box.roster).map((d) => [d.id, d]));
  check(box, sheet, roster);
  const players = sheet.players.map((p) => {
    const completed = [];
    let loose = 0;
    for (const [id, positions] of Object.entries(p.tiles || {})) {
      const { values, set_value: value } = roster.get(id);
      const sets = completeSets(roster.get(id), positions); // their tiles score no more
      for (let n = 0; n < sets; n++) completed.push({ dinosaur: id, value });
      loose += sum(positions.map((held) => values[held - 1])) - sets * sum(values);
    }
    return { name: p.name, total: sum(completed.map((c) => c.value)) + loose, breakdown: { completed, loose } };
  });
  const key = (p) => p.breakdown.completed.map((c) => c.value).sort((a, b) => b - a);
  return table(box.id, players, { variant: sheet.variant ?? box.default_variant }, {
    key, rule: "The largest completed dinosaur wins, then the second largest, and so on.",
    describe: (p) => `completed ${key(p).join(", ") || "none"}`,
  });
}
