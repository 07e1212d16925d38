// @ts-check
/** The console's pages, in nav order; each is `./<id>.js` (a page that fails to load shows "not available"). */
export const PAGES = [
  { id: "outbox", title: "Outbox" },
  { id: "builds", title: "Builds" },
  { id: "registrar", title: "Registrar" },
  { id: "search", title: "Search" },
  { id: "meetings", title: "Meetings" },
  { id: "markdown", title: "Markdown" },
  { id: "requests", title: "Requests & faults" },
];
