/* The operator's tournament form (admin): the chosen game's options only, the fields that
   apply to the kind, format and prize, and the payouts table's rows (add, remove, total).
   The split preview is the server's (htmx posts the form). */
(function () {
  "use strict";

  function row(name) {
    return document.querySelector(".form-row.field-" + name) ||
      (document.getElementById("id_" + name) || {closest: function () { return null; }}).closest(".form-row");
  }

  function show(name, visible) {
    var r = row(name);
    if (r) { r.hidden = !visible && !r.classList.contains("errors"); }
  }

  function value(name) {
    var input = document.getElementById("id_" + name);
    return input ? input.value : "";
  }

  function sync() {
    var game = value("game");
    document.querySelectorAll("fieldset.game-options").forEach(function (set) {
      set.hidden = !set.classList.contains("game-options-" + game);
    });
    var prize = value("prize");
    show("satellite_target", prize === "satellite");
    show("payouts", prize !== "satellite");
    show("starts_at", value("kind") !== "sit_and_go");
    show("min_players", value("kind") !== "sit_and_go");
    show("rounds", value("format") === "points");
  }

  function renumber(table) {
    var place = table.dataset.placeLabel, remove = table.dataset.removeLabel, percent = table.dataset.percentLabel;
    var rows = table.querySelectorAll("tbody tr.payout-row");
    var total = 0;
    rows.forEach(function (tr, i) {
      var n = String(i + 1);
      tr.querySelector(".payout-place").textContent = place.replace("%(n)s", n);
      tr.querySelector(".payout-remove").setAttribute("aria-label", remove.replace("%(n)s", n));
      tr.querySelector(".payout-remove").disabled = rows.length === 1;
      var input = tr.querySelector(".payout-percent");
      input.setAttribute("aria-label", percent.replace("%(n)s", n));
      var v = parseInt(input.value, 10);
      if (!isNaN(v)) { total += v; }
    });
    table.querySelector(".payouts-sum").textContent = String(total);
    table.querySelector(".payouts-total").classList.toggle("wrong", total !== 100);
  }

  function payouts(table) {
    table.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) { return; }
      var body = table.querySelector("tbody");
      if (button.classList.contains("payout-add")) {
        var copy = body.lastElementChild.cloneNode(true);
        copy.querySelector("input").value = "";
        body.appendChild(copy);
        copy.querySelector("input").focus();
      } else if (button.classList.contains("payout-remove") && body.children.length > 1) {
        button.closest("tr").remove();
      } else {
        return;
      }
      renumber(table);
      table.closest("form").dispatchEvent(new Event("change", {bubbles: true}));
    });
    table.addEventListener("input", function () { renumber(table); });
    renumber(table);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("tournament_form");
    if (!form) { return; }
    form.addEventListener("change", sync);
    sync();
    form.querySelectorAll("table.payouts-table").forEach(payouts);
  });
})();
