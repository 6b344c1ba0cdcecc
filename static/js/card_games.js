// Board moves of Poker all'italiana, Solitario, Burraco and Scala 40: select cards on the
// board (and a meld or a column), and the page sends the one legal action that matches.
// The legal actions come from the server (#legal-moves, with their labels): the page never
// builds an action itself, so a meld selected in any order goes in the engine's canonical
// order. Selection is drawn in the DOM (.selected) and kept in `kept`: a re-render (a timer,
// another player's move, a sync) draws it again on the cards still there (issue 12).
(function () {
  if (window.mazziereCardGames) return;
  window.mazziereCardGames = true;

  const moves = () => {
    const el = document.getElementById("legal-moves");
    return el ? JSON.parse(el.textContent) : [];
  };
  const picked = () => [...document.querySelectorAll("[data-pick].selected")];
  const cardsOf = (els) => els.map((el) => el.dataset.card);
  const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

  // the cards picked, each as (code, which of the page's picks with that code): a render of the
  // same version (a timer, a sync, a chat line) draws the same picks again; a new version starts
  // afresh. A code alone would not do: a double deck's twin may lie on the board before the hand's.
  const versionNow = () => (document.querySelector("[data-version]") || { dataset: {} }).dataset.version;
  let kept = { version: undefined, picks: [] };
  const remember = () => {
    const all = [...document.querySelectorAll("[data-pick][data-card]")];
    kept = { version: versionNow(), picks: picked().filter((el) => el.dataset.card).map((el) => {
      const code = el.dataset.card;
      return [code, all.filter((other) => other.dataset.card === code).indexOf(el)];
    }) };
  };
  function restore() {
    if (!kept.picks.length || kept.version !== versionNow()) {
      kept = { version: versionNow(), picks: [] };
      return;
    }
    for (const el of picked()) el.classList.remove("selected");
    const all = [...document.querySelectorAll("[data-pick][data-card]")];
    for (const [code, nth] of kept.picks) {
      const el = all.filter((other) => other.dataset.card === code)[nth];
      if (el) el.classList.add("selected");
    }
  }

  function send(action) {
    const form = document.getElementById("move-form");
    if (!form) return;
    form.querySelector("[name=action]").value = JSON.stringify(action);
    picked().forEach((el) => el.classList.remove("selected"));
    kept = { version: undefined, picks: [] };
    if (form.requestSubmit) form.requestSubmit();
    else form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  }

  function candidates(meld) {
    const box = document.getElementById("proposals");
    if (!box) return [];
    // how the picked cards name a move, as the game's presenter declares it (data-pick)
    const rule = box.dataset.pick;
    const cards = cardsOf(picked());
    const all = moves();
    if (rule === "change") return all.filter((m) => m.action.type === "draw" && sameCards(m.action.cards, cards));
    if (cards.length === 0) return [];
    if (rule === "first") return all.filter((m) => m.action.type === "move" && m.action.card === cards[0]);
    let found;
    if (cards.length === 1) found = all.filter((m) => m.action.card === cards[0]);
    else found = all.filter((m) => m.action.type === "meld" && sameCards(m.action.cards, cards));
    if (meld !== undefined) found = found.filter((m) => String(m.action.meld) === String(meld));
    return found;
  }

  // the meld the proposals were last narrowed to: a socket message re-proposes for the same one
  let lastMeld;

  function propose(meld) {
    const box = document.getElementById("proposals");
    if (!box) return;
    lastMeld = meld;
    const found = candidates(meld);
    const count = picked().length;
    const buttons = found.map((m) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "proposal";
      b.textContent = m.label;
      b.dataset.action = JSON.stringify(m.action);
      return b;
    });
    // the same proposals stay the same buttons: rebuilt on every socket message (timer, other
    // parts of the page) they were replaced under the pointer and a click could wait for ever
    const same = buttons.length === box.children.length
      && buttons.every((b, i) => box.children[i].dataset.action === b.dataset.action && box.children[i].textContent === b.textContent);
    if (!same) box.replaceChildren(...buttons);
    const hint = document.getElementById("proposals-hint");
    if (hint) {
      hint.hidden = !(count && !found.length);
    }
    for (const el of document.querySelectorAll("[data-meld]")) {
      const index = el.dataset.meld;
      el.classList.toggle("target", mine(el) && count === 1 && candidates(index).some((m) => m.action.meld !== undefined));
    }
  }

  // only a seat whose turn it is has the move form: for anyone else the board is to look at
  const myTeam = () => (document.getElementById("move-form") || { dataset: {} }).dataset.team;
  const mine = (meld) => !meld.dataset.meldTeam || !myTeam() || meld.dataset.meldTeam === myTeam();

  document.addEventListener("click", (event) => {
    if (!document.getElementById("move-form")) return;
    const proposal = event.target.closest("button.proposal");
    if (proposal) {
      send(JSON.parse(proposal.dataset.action));
      return;
    }
    const direct = event.target.closest("[data-send]");
    if (direct) {
      send(JSON.parse(direct.dataset.send));
      return;
    }
    const pick = event.target.closest("[data-pick]");
    if (pick) {
      const chosen = picked();
      const column = pick.closest("[data-target]");
      if (pick.closest("[data-select=one]") && chosen.length === 1 && chosen[0] !== pick && column
          && !column.contains(chosen[0])) {
        // a card is chosen and another pile is clicked: that pile is the destination
        const found = candidates().filter((m) => m.action.to === column.dataset.target);
        if (found.length === 1) {
          send(found[0].action);
          return;
        }
      }
      if (pick.closest("[data-select=one]")) {
        picked().forEach((el) => { if (el !== pick) el.classList.remove("selected"); });
      }
      pick.classList.toggle("selected");
      remember();
      propose();
      return;
    }
    const target = event.target.closest("[data-target]");
    if (target) {
      const found = candidates().filter((m) => m.action.to === target.dataset.target);
      if (found.length === 1) send(found[0].action);
      return;
    }
    const meld = event.target.closest("[data-meld]");
    if (meld && mine(meld) && picked().length === 1) {
      const found = candidates(meld.dataset.meld);
      if (found.length === 1) send(found[0].action);
      else propose(meld.dataset.meld);
    }
  });
  document.addEventListener("htmx:wsAfterMessage", () => { restore(); propose(lastMeld); });
})();
