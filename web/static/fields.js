// A player's sheet: total, place, breakdown and the counts, drawn from the sheet's groups of
// fields. What is entered goes to `enter(player, key, value)` at once.
import { byId, h, ids } from "./dom.js";
import { item, t } from "./i18n.js";
import { number } from "./sheet.js";

/** What a count field holds while the phone cannot read what was typed in it: text that is no
 * number, kept as it is saved (NaN was saved as null, and null read as 0), refused until put right.
 * A number field shows it empty; the grid shows it as it is. */
export const UNREADABLE = "?";

/** `tools` are the player's buttons (rename, move, remove); `unit` what the totals count. */
export function playerSheet(player, { groups, unit, enter, toggled, tools }) {
  return h("section", { class: "card player", id: ids.sheet(player), "aria-labelledby": ids.name(player) },
    h("div", { class: "head" },
      h("h2", { id: ids.name(player), text: player.name }),
      h("p", { class: "score" },
        h("output", { id: ids.total(player), "aria-label": t("totalOf", { name: player.name }), "aria-live": "off", text: "–" }),
        h("span", { class: "unit", text: t("unitAfter", { unit }) }))),
    h("p", { id: ids.rank(player), class: "rank" }),
    h("details", { class: "breakdown" },
      h("summary", { text: t("breakdown") }),
      h("dl", { id: ids.breakdown(player) })),
    h("p", { id: ids.msg(ids.sheet(player)), class: "msg" }),
    groups.map((group) => fieldGroup(player, group, { unit, enter, toggled })),
    tools);
}

function fieldGroup(player, group, how) {
  const msgId = ids.groupMsg(player, group);
  const rows = group.rows.map((row) => fieldRow(player, row, group.skeleton ? msgId : null, how));
  const message = h("p", { id: msgId, class: "msg" });
  if (!group.skeleton) {
    return h("fieldset", { class: "group" }, h("legend", { text: group.legend }), rows, message);
  }
  // A skeleton is tapped open by the player holding some of it; its positions read left to right.
  const held = heldIn(player, group);
  const open = player.open?.[group.id] ?? held > 0;
  const count = h("span", { class: "muted", text: held ? t("heldTiles", { n: held }) : "" });
  return h("details", { class: "group skeleton", open, ontoggle: (e) => how.toggled(player, group, e.target.open),
    oninput: () => { count.textContent = heldIn(player, group) ? t("heldTiles", { n: heldIn(player, group) }) : ""; } },
  h("summary", {}, h("span", { text: group.legend }), count),
  h("fieldset", {}, h("legend", { class: "vh", text: `${player.name} ${group.legend}` }),
    h("div", { class: "cells" }, rows)),
  message);
}

const heldIn = (player, group) => group.rows.reduce((n, row) => n + Math.max(0, number(player.values[row.key]) || 0), 0);

function fieldRow(player, row, groupMsg, { unit, enter }) {
  const id = ids.field(player, row);
  const value = player.values[row.key];
  // A number half typed ("-" before "-5") or unreadable ("12-") reads as "" on a number field:
  // kept as UNREADABLE, so that it is never totalled as 0, after a reload or in another tab too.
  const input = (e) => enter(player, row.key, e.target.type === "checkbox" ? e.target.checked
    : e.target.validity?.badInput ? UNREADABLE : e.target.value);
  const msg = h("p", { id: ids.msg(id), class: "msg" });
  if (row.kind === "mission") {
    const hint = h("p", { id: ids.hint(id), class: "muted", text: condition(row, value) });
    return h("div", { class: "field" },
      // The group's legend shows the word; the label names the player too.
      h("label", { for: id, class: "vh", text: `${player.name} ${row.word}` }),
      h("select", { id, "aria-describedby": `${ids.hint(id)} ${ids.part(id, "status")} ${ids.msg(id)}`, oninput: (e) => {
        hint.textContent = condition(row, e.target.value);
        input(e);
      } },
      h("option", { value: "", text: t("noMission") }),
      row.options.map((m) => h("option", { value: m.id, text: `${item("mission", m.id, m.name)} (${m.bonus} ${unit})`, selected: m.id === value }))),
      hint, h("p", { id: ids.part(id, "status"), class: "verdict", "aria-live": "polite" }), msg);
  }
  const lead = h("span", { class: "vh", text: `${player.name} ${row.lead || ""}` });
  if (row.kind === "check") {
    return h("div", { class: "check", id: ids.part(id, "row") },
      h("input", { type: "checkbox", id, oninput: input, checked: Boolean(value), "aria-describedby": ids.msg(id) }),
      h("label", { for: id }, lead, h("span", { class: "w", text: row.word })), msg);
  }
  const label = h("label", { for: id, id: ids.label(id) }, lead, h("span", { class: "w", text: row.short || row.word }));
  // − and + take off and add a row's `step` (a simplified game's 2 ₩ token), 1 unless said;
  // named with the count, as a screen reader lists the buttons ("One more, Ann gold").
  const step = (delta, text, name) => h("button", {
    type: "button", class: "step", tabindex: "-1", "data-step": delta * (row.step || 1), "data-for": id,
    "aria-label": `${t(name)}, ${label.textContent}`, text,
  });
  const field = h("input", {
    type: "number", id, inputmode: row.min === 0 ? "numeric" : null, step: row.step || 1, min: row.min ?? null, max: row.max ?? null,
    value: value ?? "0", oninput: input, "aria-describedby": [row.hint && ids.hint(id), groupMsg || ids.msg(id)].filter(Boolean).join(" "),
  });
  if (groupMsg) {
    // A position of a skeleton: a narrow cell with + above and − below.
    return h("div", { class: "cell" }, label, step(1, "+", "oneMore"), field, step(-1, "−", "oneFewer"),
      row.hint ? h("span", { id: ids.hint(id), class: "muted", title: t("looseValue"), text: t("pt", { n: row.hint }) }) : null);
  }
  const swatch = row.swatch ? h("span", { class: "swatch", "aria-hidden": "true" }) : null;
  swatch?.style.setProperty("--swatch", row.swatch);
  return h("div", { class: "row" },
    h("div", { class: "what" }, swatch, label, row.hint ? h("span", { id: ids.hint(id), class: "hint", text: row.hint }) : null),
    step(-1, "−", "oneFewer"), field, step(1, "+", "oneMore"), msg);
}

const condition = (row, mission) => {
  const chosen = row.options.find((m) => m.id === mission);
  return chosen ? row.condition(chosen) : "";
};

/** What a row says of itself ({ text, good }: a mission judged from the counts) and whether it
 * is shown, asked again after every change. */
export function refreshRows(players, groups) {
  for (const player of players) {
    for (const row of groups.flatMap((g) => g.rows)) {
      const id = ids.field(player, row);
      if (row.status) {
        const { text = "", good = false } = row.status(player) || {};
        const el = byId(ids.part(id, "status"));
        el.textContent = text;
        el.classList.toggle("good", good);
      }
      if (row.shown) byId(ids.part(id, "row")).hidden = !row.shown(player);
    }
  }
}

/** The − and + buttons beside a count, for every sheet inside `root`. */
export function stepButtons(root) {
  root.addEventListener("click", (e) => {
    const button = e.target.closest("[data-step]");
    if (!button) return;
    const input = byId(button.dataset.for);
    let value = (Math.trunc(Number(input.value)) || 0) + Number(button.dataset.step);
    if (input.min !== "") value = Math.max(Number(input.min), value);
    if (input.max !== "") value = Math.min(Number(input.max), value);
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  root.addEventListener("focusin", (e) => {
    if (e.target.type === "number") e.target.select();
  });
}
