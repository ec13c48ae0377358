// referee web table: the page fits the evening. On a phone (one section at a time,
// chosen with the tabs) the section shown after another starts right under the tabs: a
// page scrolled far down a long section (the dice tray under the actions) is brought back
// up when another is shown, never left past the end of a shorter one on a blank screen.

const tabs = document.querySelector(".tabs");
const panes = [...document.querySelectorAll("#main .pane")];

function onShown(pane) {
  if (!tabs || getComputedStyle(tabs).display === "none" || !pane.classList.contains("active")) return;
  // where the tabs sit before they stick: under the header (they stick at the top)
  const top = tabs.previousElementSibling ? tabs.previousElementSibling.offsetHeight : 0;
  if (window.scrollY > top) window.scrollTo(0, top);
}

if (tabs && panes.length) {
  const seen = new MutationObserver((records) => {
    for (const r of records) if (r.target instanceof HTMLElement) onShown(r.target);
  });
  for (const pane of panes) seen.observe(pane, { attributes: true, attributeFilter: ["class"] });
}
