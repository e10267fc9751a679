// What the games' calculators share, as scoring/results.py has it: refusing what no real game can
// give, and ranking the players. The page scores with these on the phone, with no network; the
// server's answers are the same (tests/web/vectors.json proves it on every game).

/** A scoresheet no real game can give: `errors` maps a field, named as the API's error keys name
 * it, to what is wrong with it ([{ code, ...numbers }]), which the page words in its language. */
export class Invalid extends Error {
  constructor(errors) {
    super(Object.keys(errors).join(", "));
    this.errors = errors;
  }
}

/** Collects what is wrong per field while a scoresheet is checked; done() throws Invalid. */
export class Problems {
  errors = {};
  held = new Map(); // kind -> [[field, count]]: what each field holds, for a limit across players

  add(field, code, details = {}) {
    (this.errors[field] ??= []).push({ code, ...details });
  }

  hold(kind, field, n = 1) {
    if (n) this.held.set(kind, [...(this.held.get(kind) || []), [field, n]]);
  }

  /** How many of `kind` the table holds, if more than `most` (else 0). */
  over(kind, most) {
    const total = (this.held.get(kind) || []).reduce((sum, [, n]) => sum + n, 0);
    return total > most ? total : 0;
  }

  /** A limit across players: said on `players` and on every field that holds some of `kind`. */
  limit(kind, code, details) {
    for (const [field] of [["players"], ...this.held.get(kind)]) this.add(field, code, details);
  }

  done() {
    if (Object.keys(this.errors).length) throw new Invalid(this.errors);
  }
}

/** Orders keys as Python orders tuples: element by element, a shorter prefix first. */
function compare(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i >= a.length || i >= b.length) return i >= a.length ? -1 : 1;
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/** A calculator's answer: the game, its settings, the scored players, ranks and winners, and
 * the printed tie-break where it decided anything (`tie`: { key, rule, describe }). */
export function table(game, players, extra = {}, tie = null) {
  const keys = new Map(players.map((p) => [p, [p.total, ...(tie ? tie.key(p) : [])]]));
  const above = (a, b) => compare(keys.get(a), keys.get(b)); // > 0: a ranks above b
  for (const p of players) p.rank = 1 + players.filter((other) => above(other, p) > 0).length;
  const ordered = [...players].sort((a, b) => above(b, a));
  const lines = [];
  for (const total of [...new Set(players.map((p) => p.total))].sort((a, b) => b - a)) {
    const group = ordered.filter((p) => p.total === total);
    if (!tie || new Set(group.map((p) => String(keys.get(p)))).size < 2) continue;
    const detail = group.map((p) => `${p.name}: ${tie.describe(p)}`).join("; ");
    lines.push(`${group.map((p) => p.name).join(", ")} tied on ${total}. ${detail}.`);
  }
  return {
    game, ...extra, players,
    winners: players.filter((p) => p.rank === 1).map((p) => p.name),
    tie_break: lines.length ? { rule: tie.rule, explanation: lines.join(" ") } : null,
  };
}
