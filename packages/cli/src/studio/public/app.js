// The studio's pages, one per #hash. Each page draws itself from the API into <main>.
import { replace } from "./dom.js";
import { historyPage } from "./history-page.js";
import { improvementsPage } from "./improvements-page.js";
import { matchPage } from "./match-page.js";
import { shelfPage } from "./shelf-page.js";

const pages = { shelf: shelfPage, match: matchPage, improvements: improvementsPage, history: historyPage };

function show() {
  const [name, arg] = location.hash.slice(1).split("/");
  const page = Object.hasOwn(pages, name) ? name : "shelf";
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("active", link.dataset.page === page);
  }
  const root = document.getElementById("page");
  replace(root);
  root.dataset.page = page;
  Promise.resolve(pages[page](root, arg ? decodeURIComponent(arg) : undefined)).finally(() => {
    root.dataset.ready = page;
  });
}

addEventListener("hashchange", show);
show();
