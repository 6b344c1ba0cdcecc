"""Italian for the table's session notices (issue 27) and the cashier (issue 28)."""

IT = {
    "Your daily time limit ends in %(n)s minute: the match in play finishes, no new match starts.": (
        "Il tuo limite di tempo giornaliero scade tra %(n)s minuto: la partita in corso finisce, non ne inizia una nuova.",
        "Il tuo limite di tempo giornaliero scade tra %(n)s minuti: la partita in corso finisce, non ne inizia una nuova."),
    "Daily time limit: %(n)s minute left. The match in play finishes; no new match starts after it.": (
        "Limite di tempo giornaliero: resta %(n)s minuto. La partita in corso finisce; dopo non ne inizia una nuova.",
        "Limite di tempo giornaliero: restano %(n)s minuti. La partita in corso finisce; dopo non ne inizia una nuova."),
}

IT.update({
    "Anti-money-laundering": "Antiriciclaggio",
    "AML case": "Caso antiriciclaggio",
    "AML cases": "Casi antiriciclaggio",
    "AML signal": "Segnalazione antiriciclaggio",
    "AML signals": "Segnalazioni antiriciclaggio",
    "AML case note": "Nota del caso antiriciclaggio",
    "AML case notes": "Note dei casi antiriciclaggio",
    "AML case event": "Evento del caso antiriciclaggio",
    "AML case events": "Eventi dei casi antiriciclaggio",
    "A list of signal ids.": "Un elenco di id di segnalazioni.",
    "Only an open case goes into review.": "Solo un caso aperto passa in esame.",
    "no_action, measure or reported.": "no_action, measure o reported.",
    "The date the report was filed, YYYY-MM-DD, not in the future.":
        "La data della segnalazione, AAAA-MM-GG, non nel futuro.",
    "Withdrawal %(id)s is being checked.": "Il prelievo %(id)s è in verifica.",
    "Withdrawal %(id)s approved.": "Prelievo %(id)s approvato.",
    "Withdrawal %(id)s rejected: the money is back in the player's balance.":
        "Prelievo %(id)s respinto: il denaro è tornato nel saldo del giocatore.",
    "AML case %(id)s": "Caso antiriciclaggio %(id)s",
    "Case opened.": "Caso aperto.",
    "no approved document": "nessun documento approvato",
    "no hold": "nessun blocco",
    "net tournament result in %(h)s h: %(net)s cents": "risultato netto nei tornei in %(h)s h: %(net)s centesimi",
    "Complete and verify your identity first: the cashier needs a verified identity document. Your account page says what is missing.":
        "Completa e verifica prima la tua identità: la cassa richiede un documento d'identità verificato. La pagina del conto dice cosa manca.",
    "Set your daily, weekly and monthly deposit limits first (Limits page).":
        "Imposta prima i limiti di deposito giornaliero, settimanale e mensile (pagina Limiti).",
    "A card number of 13 to 19 digits that passes the Luhn check.":
        "Un numero di carta di 13-19 cifre che supera il controllo di Luhn.",
    "card, bank_account or ewallet.": "card, bank_account o ewallet.",
    "The instrument must be in your own name, %(name)s: players never pay with someone else's card or account.":
        "Lo strumento deve essere intestato a te, %(name)s: non si paga con la carta o il conto di un altro.",
    "One of your own instruments.": "Uno dei tuoi strumenti.",
    "The callback's signature is missing or wrong.": "La firma della notifica manca o è errata.",
    "The callback is not JSON.": "La notifica non è JSON.",
    'A callback is {"event_id": text, "deposit": id, "status": "confirmed" or "declined"}.':
        'Una notifica è {"event_id": testo, "deposit": id, "status": "confirmed" o "declined"}.',
    "test_outcome is only for the test provider.": "test_outcome vale solo per il fornitore di prova.",
    "Only with the test provider.": "Solo con il fornitore di prova.",
    "test_outcome is confirmed, pending or declined.": "test_outcome è confirmed, pending o declined.",
    "confirmed, pending or declined.": "confirmed, pending o declined.",
    "The id of one of your instruments.": "L'id di uno dei tuoi strumenti.",
    "The callback names no deposit of this provider.": "La notifica non indica un deposito di questo fornitore.",
    "A deposit of this provider.": "Un deposito di questo fornitore.",
    "You can withdraw at most your cash balance, %(cash)s; bonus is never withdrawable.":
        "Puoi prelevare al massimo il tuo saldo in denaro, %(cash)s; il bonus non è mai prelevabile.",
    "Only a withdrawal still requested can be cancelled: this one is %(status)s.":
        "Si può annullare solo un prelievo ancora richiesto: questo è %(status)s.",
    "This withdrawal is %(status)s: that step is not possible now.":
        "Questo prelievo è %(status)s: il passaggio non è possibile ora.",
    "The automatic checks do not pass: %(failed)s.": "I controlli automatici non sono superati: %(failed)s.",
    "E-wallet (e-mail)": "Portafoglio elettronico (e-mail)",
    "Already sent: nothing was done twice.": "Già inviato: nulla è stato fatto due volte.",
    "Withdrawal requested: the money is set aside until it is paid.":
        "Prelievo richiesto: il denaro è accantonato finché non viene pagato.",
    "Withdrawal cancelled: the money is back in your balance.": "Prelievo annullato: il denaro è tornato nel tuo saldo.",
    "payment instrument": "strumento di pagamento",
    "payment instruments": "strumenti di pagamento",
    "provider event": "evento del fornitore",
    "provider events": "eventi del fornitore",
    "Nothing on these pages is ever shown to the player. A case open or in review blocks the approval of the player's withdrawals.":
        "Nulla di queste pagine è mai mostrato al giocatore. Un caso aperto o in esame blocca l'approvazione dei suoi prelievi.",
    "Cases": "Casi",
    "summary": "sintesi",
    "rule": "regola",
    "counterparty": "controparte",
    "case": "caso",
    "measure": "misura",
    "Outcome": "Esito",
    "a measure": "una misura",
    "Measure": "Misura",
    "e.g. conto sospeso": "es. conto sospeso",
    "made": "effettuato",
    "No case.": "Nessun caso.",
    "waiting (requested, in review, approved)": "in attesa (richiesti, in verifica, approvati)",
    "Oldest first. The money of each waiting withdrawal sits in its escrow; a failing check blocks the approval.":
        "Dal più vecchio. Il denaro di ogni prelievo in attesa è accantonato; un controllo non superato blocca l'approvazione.",
    "approved, being paid": "approvato, in pagamento",
    "paid": "pagato",
    "for play only, never withdrawable": "solo per giocare, mai prelevabile",
    "set aside until paid": "accantonati fino al pagamento",
    "The cashier needs a verified identity: complete your details and upload your document first.":
        "La cassa richiede un'identità verificata: completa i tuoi dati e carica prima il documento.",
    "confirmed at once": "confermato subito",
    "From €10 to €10.000. Your deposit limits apply.": "Da €10 a €10.000. Valgono i tuoi limiti di deposito.",
    "Add a card, a bank account or an e-wallet in your name first.":
        "Aggiungi prima una carta, un conto bancario o un portafoglio elettronico a tuo nome.",
    "Up to your cash, %(c)s. Finance checks each withdrawal before paying it.":
        "Fino al tuo saldo in denaro, %(c)s. L'amministrazione controlla ogni prelievo prima di pagarlo.",
    "Request the withdrawal": "Richiedi il prelievo",
    "Card number, IBAN or e-mail": "Numero di carta, IBAN o e-mail",
    "Only instruments in your own name. Of a card we keep only the last four digits.":
        "Solo strumenti a tuo nome. Di una carta conserviamo solo le ultime quattro cifre.",
    "Made": "Effettuato",
})

IT.update({
    "No such AML case.": "Nessun caso antiriciclaggio con questo id.",
    "This case is closed.": "Questo caso è chiuso.",
    "The case is not valid.": "Il caso non è valido.",
    "Signals of this player.": "Segnalazioni di questo giocatore.",
    "This player already has an AML case that is not closed.": "Questo giocatore ha già un caso antiriciclaggio non chiuso.",
    "The measure taken, 1 to 500 characters.": "La misura presa, da 1 a 500 caratteri.",
    "The UIF protocol number, 1 to 50 characters.": "Il numero di protocollo UIF, da 1 a 50 caratteri.",
    "The case cannot be closed like this.": "Il caso non può essere chiuso così.",
    "A note is 1 to 2000 characters.": "Una nota ha da 1 a 2000 caratteri.",
    "1 to 2000 characters.": "Da 1 a 2000 caratteri.",
    "The case is in review.": "Il caso è in esame.",
    "The case is closed.": "Il caso è chiuso.",
    "not verified": "non verificata",
    "none open": "nessuno aperto",
    "case %(id)s %(status)s": "caso %(id)s %(status)s",
    "Your account is frozen by a sanction: deposits are not possible now.":
        "Il tuo conto è bloccato da una sanzione: ora non puoi depositare.",
    "Your identity document has expired: upload a valid one from your account page, then withdraw.":
        "Il tuo documento d'identità è scaduto: caricane uno valido dalla pagina del conto, poi preleva.",
    "Your account is frozen by a sanction: withdrawals wait until it ends.":
        "Il tuo conto è bloccato da una sanzione: i prelievi attendono la sua fine.",
    "A valid IBAN.": "Un IBAN valido.",
    "A valid e-mail address.": "Un indirizzo e-mail valido.",
    "The instrument is not valid.": "Lo strumento non è valido.",
    "The holder's name, 1 to 200 characters.": "Il nome dell'intestatario, da 1 a 200 caratteri.",
    "The card number, IBAN or e-mail, at most 100 characters.": "Il numero di carta, l'IBAN o l'e-mail, al massimo 100 caratteri.",
    "This instrument belongs to another gaming account.": "Questo strumento appartiene a un altro conto di gioco.",
    "Choose one of your own instruments.": "Scegli uno dei tuoi strumenti.",
    "The payment provider does not answer: nothing was charged, try again in a few minutes.":
        "Il fornitore dei pagamenti non risponde: non è stato addebitato nulla, riprova tra qualche minuto.",
    "The callback is a JSON object.": "La notifica è un oggetto JSON.",
    "The amount is not valid.": "L'importo non è valido.",
    "Whole cents from %(low)s to %(high)s.": "Centesimi interi da %(low)s a %(high)s.",
    "No such payment provider.": "Nessun fornitore di pagamenti con questo nome.",
    "No such withdrawal.": "Nessun prelievo con questo id.",
    "1 to 200 characters.": "Da 1 a 200 caratteri.",
    "Card": "Carta",
    "Bank account (IBAN)": "Conto bancario (IBAN)",
    "Instrument added.": "Strumento aggiunto.",
    "The payment provider declined the deposit: nothing was charged.":
        "Il fornitore dei pagamenti ha rifiutato il deposito: non è stato addebitato nulla.",
    "Deposit received.": "Deposito ricevuto.",
    "deposit": "deposito",
    "deposits": "depositi",
    "withdrawal": "prelievo",
    "withdrawals": "prelievi",
    "player": "giocatore",
    "No case yet.": "Ancora nessun caso.",
    "raised": "sollevata",
    "details": "dettagli",
    "Summary of the case": "Sintesi del caso",
    "Open a case": "Apri un caso",
    "No signal.": "Nessuna segnalazione.",
    "UIF report": "Segnalazione UIF",
    "Take in review": "Prendi in esame",
    "Close the case": "Chiudi il caso",
    "no action": "nessuna azione",
    "reported to the UIF": "segnalato alla UIF",
    "Report date": "Data della segnalazione",
    "Protocol number": "Numero di protocollo",
    "Close": "Chiudi",
    "Withdrawals waiting": "Prelievi in attesa",
    "Withdrawal queue": "Coda dei prelievi",
    "Instruments": "Strumenti",
    "requested": "richiesto",
    "checks": "controlli",
    "decision": "decisione",
    "Reason for approving": "Motivo dell'approvazione",
    "Approve and pay": "Approva e paga",
    "reason the player will read": "motivo che il giocatore leggerà",
    "Reject": "Respingi",
    "No withdrawal here.": "Nessun prelievo qui.",
    "confirmed": "confermato",
    "waiting for the provider": "in attesa del fornitore",
    "declined": "rifiutato",
    "being checked": "in verifica",
    "Balances": "Saldi",
    "withdrawable": "prelevabile",
    "Go to your account": "Vai al tuo conto",
    "Deposit": "Deposita",
    "Amount (€)": "Importo (€)",
    "Test outcome": "Esito di prova",
    "waits for the provider": "attende il fornitore",
    "Withdraw": "Preleva",
    "Your instruments": "I tuoi strumenti",
    "None yet.": "Ancora nessuno.",
    "Holder": "Intestatario",
    "Requested": "Richiesto",
    "Cancel": "Annulla",
    "No withdrawal yet.": "Ancora nessun prelievo.",
    "No deposit yet.": "Ancora nessun deposito.",
})

IT.update({
    "ADM reconciliation": "Riconciliazione ADM",
    "At a money table the stake is a multiple of €0,50 from €0,50 to €100,00.":
        "A un tavolo con denaro la posta è un multiplo di €0,50 da €0,50 a €100,00.",
    "A player could pay up to %(most)s into one match; the cash regime allows at most %(cap)s.":
        "Un giocatore potrebbe versare fino a %(most)s in una partita; il regime cash consente al massimo %(cap)s.",
    "Type": "Tipo",
    "Messages created on %(d)s": "Messaggi creati il %(d)s",
    "sent": "inviati",
    "accepted": "accettati",
    "pending": "in attesa",
    "By type": "Per tipo",
    "type": "tipo",
    "created": "creato",
    "attempts": "tentativi",
    "rejection": "rifiuto",
    "No message that day.": "Nessun messaggio quel giorno.",
    "%(n)s money movement older than 24 hours is not covered by a message ADM accepted.": (
        "%(n)s movimento di denaro più vecchio di 24 ore non è coperto da un messaggio accettato da ADM.",
        "%(n)s movimenti di denaro più vecchi di 24 ore non sono coperti da un messaggio accettato da ADM."),
    "message": "messaggio",
    "Every movement is covered.": "Ogni movimento è coperto.",
    "What goes back to the players": "Quanto torna ai giocatori",
    "Tournaments: at least %(p)s%% of every entry goes to the prize pool; the rest is the organiser's fee, shown with the entry cost.":
        "Tornei: almeno il %(p)s%% di ogni iscrizione va al montepremi; il resto è la commissione dell'organizzatore, indicata con il costo di partecipazione.",
    "Money tables: the players share the pot; the bank's share is taken from the pot of each match, never from your balance.":
        "Tavoli con denaro: i giocatori si dividono il piatto; la quota del banco è presa dal piatto di ogni partita, mai dal tuo saldo.",
    "To the players": "Ai giocatori",
    "To the bank": "Al banco",
    "At a money table nobody can pay more than %(m)s into one match, re-entries included. Play-money credits are not money.":
        "A un tavolo con denaro nessuno può versare più di %(m)s in una partita, rientri compresi. I crediti di gioco non sono denaro.",
})

IT.update({
    "Prize %(prize)s (pot %(pot)s, the bank keeps %(pct)s%%: %(bank)s).":
        "Premio %(prize)s (piatto %(pot)s, al banco il %(pct)s%%: %(bank)s).",
    "Prize %(prize)s credit (pot %(pot)s, the bank keeps %(pct)s%%: %(bank)s).": (
        "Premio %(prize)s credito (piatto %(pot)s, al banco il %(pct)s%%: %(bank)s).",
        "Premio %(prize)s crediti (piatto %(pot)s, al banco il %(pct)s%%: %(bank)s)."),
    "Bank (its share of cash pots) by day": "Banco (la sua quota dei piatti in contanti) per giorno",
    "Bank (its share of credits pots) by day": "Banco (la sua quota dei piatti in crediti) per giorno",
})

IT.update({
    "ADM message\x04pending": "in attesa",
    "ADM message\x04accepted": "accettato",
    "ADM message\x04rejected": "rifiutato",
})

IT.update({
    "Your movements": "I tuoi movimenti",
    "This game session's movements, since %(t)s.": "I movimenti di questa sessione di gioco, dal %(t)s.",
    "All movements": "Tutti i movimenti",
    "newer": "più recenti",
    "older": "meno recenti",
})

IT.update({
    "ADM's central system did not validate the match: nothing was charged. Confirm again to play.":
        "Il sistema centrale ADM non ha convalidato la partita: non è stato addebitato nulla. Conferma di nuovo per giocare.",
    "session": "sessione",
    "ADM session code": "Codice sessione ADM",
    "Your ADM participation code": "Il tuo codice di partecipazione ADM",
})

IT.update({
    "ADM summary\x04total": "totale",
    "ADM summary\x04sent": "inviati",
    "ADM summary\x04accepted": "accettati",
    "ADM summary\x04rejected": "rifiutati",
    "ADM summary\x04pending": "in attesa",
})
