// Table page: the visible turn countdown, and a fresh render when a frame was missed
// (platform.md §10.3: the channel layer may drop messages under load).
(function () {
  const root = document.getElementById("table-root");
  if (!root) return;
  const id = root.dataset.table;
  const QUIET_MS = 20000; // a socket this quiet asks for a render now and then
  let socket = null;
  let open = false; // never queue syncs on a closed socket: they would all go at once on reconnect
  let lastVersion = null;
  let lastMatch = null;
  let lastMessage = Date.now();
  const sync = () => { if (socket && open) socket.send(JSON.stringify({ sync: true })); };
  root.addEventListener("htmx:wsOpen", (e) => { socket = e.detail.socketWrapper; open = true; });
  root.addEventListener("htmx:wsClose", () => { open = false; });
  root.addEventListener("htmx:wsAfterMessage", () => {
    lastMessage = Date.now();
    const board = document.getElementById(`table-${id}-board`);
    if (!board) return;
    const version = parseInt(board.dataset.version || "0", 10);
    const match = board.dataset.match || "";
    if (match === lastMatch && lastVersion !== null && version > lastVersion + 1) sync();
    lastMatch = match;
    lastVersion = version;
  });
  setInterval(() => {
    const timer = document.getElementById(`table-${id}-timer`);
    if (timer && timer.dataset.deadline) {
      const left = Math.max(0, Math.round((Date.parse(timer.dataset.deadline) - Date.now()) / 1000));
      const span = timer.querySelector(".left");
      if (span) span.textContent = left;
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
