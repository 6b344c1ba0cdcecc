// Table page: the visible turn countdown, a fresh render when a frame was missed
// (platform.md §10.3: the channel layer may drop messages under load), the cards a
// player is picking kept across other players' moves, and the capture chooser.
(function () {
  const root = document.getElementById("table-root");
  if (!root) return;
  const id = root.dataset.table;
  const prefix = root.dataset.dom || `table-${id}`; // a tournament match's page: match-{id}
  const QUIET_MS = 20000; // a socket this quiet asks for a render now and then
  let socket = null;
  let open = false; // never queue syncs on a closed socket: they would all go at once on reconnect
  let lastVersion = null;
  let lastMatch = null;
  let lastMessage = Date.now();
  let picked = { key: "", cards: new Set() }; // the pick in progress (Hearts' pass), by match and pick type
  const sync = () => { if (socket && open) socket.send(JSON.stringify({ sync: true })); };
  const pickKey = (form) => `${lastMatch || ""}:${form.dataset.pick}`;

  function refreshPick(form) {
    const boxes = Array.from(form.querySelectorAll("input[name=cards]"));
    const n = boxes.filter((b) => b.checked).length;
    const min = parseInt(form.dataset.min || "1", 10), max = parseInt(form.dataset.max || "99", 10);
    const submit = form.querySelector(".pick-submit");
    if (submit) submit.disabled = n < min || n > max;
    for (const b of boxes) {
      b.closest("label").classList.toggle("picked", b.checked);
      b.disabled = !b.checked && n >= max;
    }
  }
  function restorePicks() {
    for (const form of root.querySelectorAll("form.pick")) {
      if (picked.key === pickKey(form)) {
        for (const box of form.querySelectorAll("input[name=cards]")) box.checked = picked.cards.has(box.value);
      }
      refreshPick(form);
    }
  }
  root.addEventListener("change", (e) => {
    const form = e.target.closest && e.target.closest("form.pick");
    if (!form) return;
    const key = pickKey(form);
    if (picked.key !== key) picked = { key, cards: new Set() };
    if (e.target.checked) picked.cards.add(e.target.value); else picked.cards.delete(e.target.value);
    refreshPick(form);
  });
  root.addEventListener("submit", (e) => {
    if (e.target.matches && e.target.matches("form.pick")) picked = { key: "", cards: new Set() };
  }, true);

  // a card with several captures: the first tap opens its options; each option lights up
  // the table cards it takes
  const highlight = (takes) => {
    for (const el of root.querySelectorAll(".felt-cards svg.taken")) el.classList.remove("taken");
    for (const code of (takes || "").split(" ").filter(Boolean)) {
      const card = root.querySelector(`.felt-cards svg[data-card="${code}"]`);
      if (card) card.classList.add("taken");
    }
  };
  root.addEventListener("click", (e) => {
    const chooser = e.target.closest && e.target.closest("button.chooser");
    if (!chooser) return;
    const box = [...root.querySelectorAll(".choice[data-for]")].find((el) => el.dataset.for === chooser.dataset.chooses);
    if (!box) return;
    const opening = box.hidden;
    for (const other of root.querySelectorAll(".choice")) other.hidden = true;
    for (const b of root.querySelectorAll("button.chooser")) b.setAttribute("aria-expanded", "false");
    box.hidden = !opening;
    chooser.setAttribute("aria-expanded", String(opening));
    if (opening) box.scrollIntoView({block: "nearest"});
    const first = box.querySelector(".take-option");
    highlight(opening && first ? first.dataset.takes : "");
  });
  for (const type of ["mouseover", "focusin"]) {
    root.addEventListener(type, (e) => {
      const target = e.target.closest && e.target.closest("[data-takes]");
      if (target) highlight(target.dataset.takes);
    });
  }

  root.addEventListener("table:sync", sync); // anything on the page may ask for a fresh render
  root.addEventListener("htmx:wsOpen", (e) => { socket = e.detail.socketWrapper; open = true; });
  root.addEventListener("htmx:wsClose", () => { open = false; });
  root.addEventListener("htmx:wsAfterMessage", () => {
    lastMessage = Date.now();
    const board = document.getElementById(`${prefix}-board`);
    if (!board) return;
    const version = parseInt(board.dataset.version || "0", 10);
    const match = board.dataset.match || "";
    if (match === lastMatch && lastVersion !== null && version > lastVersion + 1) sync();
    lastMatch = match;
    lastVersion = version;
    restorePicks();
  });
  lastMatch = (document.getElementById(`${prefix}-board`) || { dataset: {} }).dataset.match || "";
  restorePicks();
  setInterval(() => {
    const timer = document.getElementById(`${prefix}-timer`);
    if (timer && timer.dataset.deadline) {
      const left = Math.max(0, Math.round((Date.parse(timer.dataset.deadline) - Date.now()) / 1000));
      const span = timer.querySelector(".left");
      if (span) span.textContent = left;
    }
    for (const el of root.querySelectorAll("[data-grace]")) { // a disconnected player's grace: m:ss
      const left = Math.max(0, Math.round((Date.parse(el.dataset.grace) - Date.now()) / 1000));
      const span = el.querySelector(".left");
      if (span) span.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    }
    for (const el of root.querySelectorAll("[data-countdown]")) {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.countdown) - Date.now()) / 1000));
      const span = el.querySelector(".left");
      if (span) span.textContent = left;
    }
    if (Date.now() - lastMessage > QUIET_MS) {
      lastMessage = Date.now();
      sync();
    }
  }, 500);
})();
