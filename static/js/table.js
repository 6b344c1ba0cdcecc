// Table page: visible turn countdown, and re-sync when a frame was missed (platform.md §10.3).
(function () {
  const root = document.getElementById("table-root");
  if (!root) return;
  const id = root.dataset.table;
  let socket = null;
  let lastVersion = null;
  let lastMatch = null;
  let lastMessage = Date.now();
  root.addEventListener("htmx:wsOpen", (e) => { socket = e.detail.socketWrapper; });
  root.addEventListener("htmx:wsAfterMessage", () => {
    lastMessage = Date.now();
    const board = document.getElementById(`table-${id}-board`);
    if (!board) return;
    const version = parseInt(board.dataset.version || "0", 10);
    const match = board.dataset.match || "";
    if (match === lastMatch && lastVersion !== null && version > lastVersion + 1 && socket) {
      socket.send(JSON.stringify({ sync: true }));
    }
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
    // a quiet socket may have missed a frame: ask for a fresh render now and then
    if (socket && Date.now() - lastMessage > 20000) {
      lastMessage = Date.now();
      socket.send(JSON.stringify({ sync: true }));
    }
  }, 500);
})();
