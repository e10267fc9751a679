// A player's name as the server keeps it (api/schemas/common.py: normalise_name, same_name): in
// Unicode NFC, with no space at either end and one between words, and refused when it holds a
// character nobody sees or one that changes the direction of the text around it. The page tidies
// and checks a name the same way before it is added, so the server's answer names every player as
// the page does, and what the server would refuse is refused in the form, in plain words.

export const NAME_LENGTH = 40;

const CONTROL = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;
// Unicode's text-direction controls: embeddings and overrides, isolates, and the marks.
const DIRECTION = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Letters and marks that draw nothing (Hangul fillers, the braille blank, the combining grapheme
// joiner, Khmer inherent vowels), and the format characters (zero-width space and joiner…).
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0]/u;
// The zero-width joiner between two emoji draws them as one (woman + rocket: an astronaut), or
// side by side where the phone knows no such pair: there it hides nothing, and is kept (names
// are compared without it). Between the first emoji and the joiner: a variation selector or a
// skin tone.
const ZWJ = "\u200d";
const EMOJI = /[\p{So}\p{Cn}]/u;
const TRAILER = /[\ufe0f\u{1f3fb}-\u{1f3ff}]/u;
function joinsEmoji(chars, at) {
  let before = at - 1;
  while (before >= 0 && TRAILER.test(chars[before])) before -= 1;
  return before >= 0 && at + 1 < chars.length && EMOJI.test(chars[before]) && EMOJI.test(chars[at + 1]);
}
// What the server leaves out of a name before comparing it with another.
const UNSEEN = /[\p{Cc}\p{Cf}\p{Cs}\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0]/gu;

/** Spaces tidied as Python's " ".join(name.split()) tidies them. */
const spaced = (name) => name.split(/\s+/u).filter(Boolean).join(" ");

/** `typed` as the server would store it, `{ name }`, or why the server would refuse it,
 * `{ problem }`: the key of its words in the language tables. */
export function tidyName(typed) {
  const name = typed.normalize("NFC");
  // The first character that cannot be in a name decides, as on the server.
  const chars = [...name];
  for (const [at, char] of chars.entries()) {
    if (CONTROL.test(char)) return { problem: "nameControl" };
    if (DIRECTION.test(char)) return { problem: "nameDirection" };
    if (INVISIBLE.test(char) && !(char === ZWJ && joinsEmoji(chars, at))) return { problem: "nameInvisible" };
  }
  const tidy = spaced(name);
  if (!tidy) return { problem: "enterName" };
  // The server counts characters (code points), not the UTF-16 units of String.length.
  if ([...tidy].length > NAME_LENGTH) return { problem: "nameTooLong" };
  return { name: tidy };
}

/** What a name is compared by: as the server compares the names at a match's table (table_name),
 * whatever the letters' case or width ("ann" and "Ａｎｎ" are the same player as "Ann" in the
 * statistics, which know a player by name). The calculators tell "ann" from "Ann". */
const key = (name) => spaced(name.replace(UNSEEN, "").normalize("NFKC")).toLowerCase();

/** Whether two names are one player's: every pair the server takes for one, and more. */
export const sameName = (a, b) => key(a) === key(b);
