// What a console page shows, read in the page: every table by its id (headers and cell texts),
// every stat card by its data-stat, and the notice or error an action left.
export function readPage() {
  const text = (el) => (el ? el.textContent.replace(/\s+/g, " ").trim() : null);
  const tables = {};
  for (const table of document.querySelectorAll("table[id]")) {
    tables[table.id] = {
      headers: [...table.querySelectorAll("thead th")].map(text),
      rows: [...table.querySelectorAll("tbody tr")].filter((tr) => !tr.querySelector("td.empty"))
        .map((tr) => [...tr.querySelectorAll("td")].map(text)),
    };
  }
  const stats = {};
  for (const card of document.querySelectorAll("[data-stat]")) stats[card.dataset.stat] = text(card.querySelector(".value"));
  return { title: document.title, heading: text(document.querySelector("h1")), stats, tables,
    range: text(document.getElementById("range")), scripts: document.querySelectorAll("script:not([src])").length,
    notice: text(document.getElementById("notice")), error: text(document.getElementById("action-error")),
    forms: [...document.querySelectorAll("form[method=post]")].map((f) => f.id) };
}
