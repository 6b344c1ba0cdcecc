"""Italian for the conto di gioco, limits, self-exclusion, KYC, ADM and the player page (issue 26)."""

IT = {
    "ADM central system": "Sistema centrale ADM",
    "ADM message": "Messaggio ADM",
    "ADM messages": "Messaggi ADM",
    "ADM's central system does not answer: nothing was charged, try again in a few minutes.":
        "Il sistema centrale ADM non risponde: non è stato addebitato nulla, riprova tra qualche minuto.",
    "ADM did not validate this: nothing was charged.": "ADM non ha convalidato l'operazione: non è stato addebitato nulla.",
    "iscrizione non convalidata": "iscrizione non convalidata",
    "At most 100 characters.": "Al massimo 100 caratteri.",
    "A user id.": "L'id di un utente.",
    "An ISO 8601 date and time.": "Una data e ora ISO 8601.",
    "Some filters are not valid.": "Alcuni filtri non sono validi.",
    "Identity": "Identità",
    "Limits": "Limiti",
    "Exclusions and sanctions": "Esclusioni e sanzioni",
    "Money": "Denaro",
    "Cashier": "Cassa",
    "Sessions": "Sessioni",
    "Play": "Gioco",
    "Signals": "Segnalazioni",
    "Notes": "Note",
    "Audit": "Audit",
    "Player %(name)s": "Giocatore %(name)s",
    "Note added.": "Nota aggiunta.",
    "The account is now %(state)s.": "Il conto ora è %(state)s.",
    "Gaming accounts": "Conti di gioco",
    "The file is larger than %(mb)s MB: send a smaller photo or scan.":
        "Il file supera %(mb)s MB: invia una foto o una scansione più piccola.",
    "Say which side: front or back.": "Indica il lato: fronte o retro.",
    "front or back": "fronte o retro",
    "Attach the file.": "Allega il file.",
    "A file is required.": "Serve un file.",
    "The file is not a JPEG, PNG or PDF: send a photo or a scan of the document.":
        "Il file non è un JPEG, PNG o PDF: invia una foto o una scansione del documento.",
    "No documents are requested from you now.": "Al momento non ti sono richiesti documenti.",
    "Your gaming account is waiting for identity verification: money play, deposits and withdrawals open once "
    "compliance approves your documents.":
        "Il tuo conto di gioco attende la verifica dell'identità: gioco con denaro, depositi e prelievi si aprono "
        "quando la compliance approva i tuoi documenti.",
    "Your gaming account is suspended until a valid identity document is approved: upload it from your account page.":
        "Il tuo conto di gioco è sospeso finché non viene approvato un documento d'identità valido: caricalo dalla "
        "pagina del conto.",
    "Your gaming account is suspended: contact customer care.":
        "Il tuo conto di gioco è sospeso: contatta l'assistenza clienti.",
    "Your gaming account is blocked: contact customer care.":
        "Il tuo conto di gioco è bloccato: contatta l'assistenza clienti.",
    "Your gaming account is closed.": "Il tuo conto di gioco è chiuso.",
    "Your gaming account is dormant: contact customer care to reactivate it.":
        "Il tuo conto di gioco è dormiente: contatta l'assistenza clienti per riattivarlo.",
    "Your gaming account is not open.": "Il tuo conto di gioco non è aperto.",
    "This change is not possible from the account's current state.":
        "Questa modifica non è possibile dallo stato attuale del conto.",
    "You excluded yourself from play with no end date: this is not available.":
        "Ti sei autoescluso dal gioco senza data di fine: questa operazione non è disponibile.",
    "You excluded yourself from play until %(until)s: this is not available until then.":
        "Ti sei autoescluso dal gioco fino al %(until)s: questa operazione non è disponibile fino ad allora.",
    "Say the scope and the days, or indefinite.": "Indica l'ambito e i giorni, oppure indefinita.",
    "One of all, tournaments, money_tables.": "Uno tra all, tournaments, money_tables.",
    "A whole number of days from %(low)s to %(high)s, or indefinite: true.":
        "Un numero intero di giorni da %(low)s a %(high)s, oppure indefinite: true.",
    "The self-exclusion is not valid.": "L'autoesclusione non è valida.",
    "A self-exclusion can be extended, never shortened: it runs until %(until)s.":
        "Un'autoesclusione si può prolungare, mai accorciare: dura fino al %(until)s.",
    "no end date": "nessuna data di fine",
    "A self-exclusion with an end date ends by itself: it cannot be revoked.":
        "Un'autoesclusione con una data di fine termina da sola: non si può revocare.",
    "This self-exclusion's revocation was already requested.": "La revoca di questa autoesclusione è già stata chiesta.",
    "An indefinite self-exclusion can be revoked from %(date)s.":
        "Un'autoesclusione a tempo indeterminato si può revocare dal %(date)s.",
    "First name": "Nome",
    "Surname": "Cognome",
    "Sex (as in the codice fiscale)": "Sesso (come nel codice fiscale)",
    "Date of birth": "Data di nascita",
    "Codice fiscale": "Codice fiscale",
    "Country of birth": "Stato di nascita",
    "Town of birth (comune)": "Comune di nascita",
    "Province (2 letters)": "Provincia (sigla)",
    "Address": "Indirizzo",
    "Postal code (CAP)": "CAP",
    "Town (comune)": "Comune",
    "Email": "Email",
    "Mobile (international, e.g. +393331234567)": "Cellulare (internazionale, es. +393331234567)",
    "Identity document": "Documento d'identità",
    "Carta d'identità": "Carta d'identità",
    "Passport": "Passaporto",
    "Driving licence": "Patente",
    "Document number": "Numero del documento",
    "Issued by": "Rilasciato da",
    "Valid until": "Valido fino al",
    "Password": "Password",
    "Deposits per day (€)": "Depositi al giorno (€)",
    "Spending per day (€)": "Spesa al giorno (€)",
    "Time per day (minutes)": "Tempo al giorno (minuti)",
    "Your account": "Il tuo account",
    "Contacts": "Contatti",
    "Who you are": "Chi sei",
    "Where you were born": "Dove sei nato",
    "Where you live": "Dove abiti",
    "Your identity document": "Il tuo documento d'identità",
    "Your limits": "I tuoi limiti",
    "At most €%(cap)s (€%(young)s if you are under 25).": "Al massimo %(cap)s € (%(young)s € se hai meno di 25 anni).",
    "At most %(cap)s minutes (%(young)s if you are under 25).":
        "Al massimo %(cap)s minuti (%(young)s se hai meno di 25 anni).",
    "Give a reason of 1 to 500 characters.": "Indica un motivo da 1 a 500 caratteri.",
    "The reason can be at most 500 characters.": "Il motivo può avere al massimo 500 caratteri.",
    "1 to 500 characters.": "Da 1 a 500 caratteri.",
    "No gaming account for this player.": "Nessun conto di gioco per questo giocatore.",
    "This player's documents are not waiting for review.": "I documenti di questo giocatore non sono in attesa di verifica.",
    "ADM has not accepted this account's opening yet: try again in a few minutes.":
        "ADM non ha ancora accettato l'apertura di questo conto: riprova tra qualche minuto.",
    "This would pass your spending limit (%(key)s): %(remaining)s left of %(value)s.":
        "Supereresti il tuo limite di spesa (%(key)s): restano %(remaining)s su %(value)s.",
    "This deposit would pass your deposit limit (%(key)s): %(remaining)s left.":
        "Questo deposito supererebbe il tuo limite di deposito (%(key)s): restano %(remaining)s.",
    "An object of limits.": "Un oggetto di limiti.",
    "Unknown limit.": "Limite sconosciuto.",
    "A whole number from 0 to %(top)s.": "Un numero intero da 0 a %(top)s.",
    "The first value of this limit can be at most %(cap)s.": "Il primo valore di questo limite può essere al massimo %(cap)s.",
    "Some limits are not valid.": "Alcuni limiti non sono validi.",
    "No raise of this limit is pending.": "Nessun aumento di questo limite è in attesa.",
    "gaming account": "conto di gioco",
    "gaming accounts": "conti di gioco",
    "account state change": "cambio di stato del conto",
    "account state changes": "cambi di stato del conto",
    "KYC event": "evento KYC",
    "KYC events": "eventi KYC",
    "identity record": "registrazione d'identità",
    "identity records": "registrazioni d'identità",
    "identity document file": "file del documento d'identità",
    "identity document files": "file dei documenti d'identità",
    "limit": "limite",
    "limits": "limiti",
    "limit change": "modifica del limite",
    "limit changes": "modifiche dei limiti",
    "player note": "nota sul giocatore",
    "player notes": "note sui giocatori",
    "registry self-exclusion": "autoesclusione del registro",
    "registry self-exclusions": "autoesclusioni del registro",
    "self-exclusion": "autoesclusione",
    "self-exclusions": "autoesclusioni",
    "self-exclusion change": "modifica dell'autoesclusione",
    "self-exclusion changes": "modifiche delle autoesclusioni",
    "A note of 1 to 2,000 characters.": "Una nota da 1 a 2.000 caratteri.",
    "1 to 2,000 characters.": "Da 1 a 2.000 caratteri.",
    "Some fields need fixing: see the messages next to them.": "Alcuni campi vanno corretti: vedi i messaggi accanto.",
    "Does not agree with the codice fiscale.": "Non concorda con il codice fiscale.",
    "The national self-exclusion registry cannot be reached: try again in a few minutes.":
        "Il registro nazionale delle autoesclusioni non è raggiungibile: riprova tra qualche minuto.",
    "This field is required.": "Questo campo è obbligatorio.",
    "Between %(low)s and %(high)s characters.": "Tra %(low)s e %(high)s caratteri.",
    "Not valid.": "Non valido.",
    "A date as YYYY-MM-DD.": "Una data come AAAA-MM-GG.",
    "A valid email address.": "Un indirizzo email valido.",
    "Letters, spaces, apostrophes, hyphens and dots only.": "Solo lettere, spazi, apostrofi, trattini e punti.",
    "M or F, as the codice fiscale encodes it.": "M o F, come nel codice fiscale.",
    "The birth date cannot be in the future.": "La data di nascita non può essere nel futuro.",
    "Two letters.": "Due lettere.",
    "Five digits.": "Cinque cifre.",
    "An international number such as +393331234567.": "Un numero internazionale come +393331234567.",
    "This email address is already used by another gaming account.":
        "Questo indirizzo email è già usato da un altro conto di gioco.",
    "Carta d'identità, passaporto or patente (a tessera sanitaria is not one).":
        "Carta d'identità, passaporto o patente (la tessera sanitaria non è un documento d'identità).",
    "5 to 20 letters and digits.": "Da 5 a 20 lettere e cifre.",
    "The document has expired: use a valid one.": "Il documento è scaduto: usane uno valido.",
    "The codice fiscale is not valid: check it on your tessera sanitaria.":
        "Il codice fiscale non è valido: controllalo sulla tessera sanitaria.",
    "The codice fiscale does not agree with the birth date or sex you gave.":
        "Il codice fiscale non concorda con la data di nascita o il sesso indicati.",
    "You must be 18 or older to open a gaming account.": "Devi avere almeno 18 anni per aprire un conto di gioco.",
    "A gaming account with this codice fiscale already exists: log in to it.":
        "Esiste già un conto di gioco con questo codice fiscale: accedi a quello.",
    "3-30 letters, digits, dots, hyphens or underscores.": "Da 3 a 30 lettere, cifre, punti, trattini o trattini bassi.",
    "This username is taken.": "Questo nome utente è già in uso.",
    "Set your deposit, spending and time limits per day.": "Imposta i tuoi limiti giornalieri di deposito, spesa e tempo.",
    "This limit is required.": "Questo limite è obbligatorio.",
    "Accept the gaming contract to open an account.": "Accetta il contratto di gioco per aprire un conto.",
    "Some fields are not valid.": "Alcuni campi non sono validi.",
    "Only a new identity document can be given here.": "Qui si può indicare solo un nuovo documento d'identità.",
    "This gaming account cannot be changed.": "Questo conto di gioco non può essere modificato.",
    "This field cannot be changed here.": "Questo campo non si può cambiare qui.",
    "Accept the gaming contract to complete your account.": "Accetta il contratto di gioco per completare il conto.",
    "Unknown action.": "Azione sconosciuta.",
    "A self-exclusion is active: staff can never end or shorten it.":
        "È attiva un'autoesclusione: lo staff non può mai terminarla né accorciarla.",
    "The account still holds cash or bonus: it cannot be closed yet.":
        "Il conto contiene ancora contanti o bonus: non si può ancora chiudere.",
    "Withdraw your cash before closing the account.": "Preleva i contanti prima di chiudere il conto.",
    "Staff accounts have no gaming account.": "Gli account dello staff non hanno un conto di gioco.",
    "Open. Complete your identity to deposit and withdraw: the law asks for it.":
        "Aperto. Completa la tua identità per depositare e prelevare: lo chiede la legge.",
    "Open: you can play for money, deposit and withdraw.": "Aperto: puoi giocare con denaro, depositare e prelevare.",
    "Waiting for verification: compliance checks your documents within 72 hours.":
        "In verifica: la compliance controlla i tuoi documenti entro 72 ore.",
    "Waiting for your identity document: upload the front and the back below.":
        "In attesa del tuo documento d'identità: carica qui sotto il fronte e il retro.",
    "Suspended by your self-exclusion: you can still withdraw, and play the tournaments you entered.":
        "Sospeso per la tua autoesclusione: puoi ancora prelevare e giocare i tornei a cui sei iscritto.",
    "Suspended: upload a valid identity document to open it again.":
        "Sospeso: carica un documento d'identità valido per riaprirlo.",
    "Suspended by the operator: contact customer care.": "Sospeso dall'operatore: contatta l'assistenza clienti.",
    "Not open (%(state)s).": "Non aperto (%(state)s).",
    "Document received.": "Documento ricevuto.",
    "Identity saved: now upload your identity document.": "Identità salvata: ora carica il tuo documento d'identità.",
    "Tick the confirmation to close the account.": "Spunta la conferma per chiudere il conto.",
    "Limits saved. A lower limit holds at once; a higher one after 7 days.":
        "Limiti salvati. Un limite più basso vale subito; uno più alto dopo 7 giorni.",
    "The pending raise is cancelled.": "L'aumento in attesa è annullato.",
    "Tick the confirmation: a self-exclusion cannot be undone or shortened.":
        "Spunta la conferma: un'autoesclusione non si può annullare né accorciare.",
    "Your self-exclusion has started.": "La tua autoesclusione è iniziata.",
    "player page": "scheda giocatore",
    "access log entry": "voce del registro accessi",
    "access log": "registro accessi",
    "Your gaming account is open for verification: choose a nickname, then upload your identity document from your "
    "account page.":
        "Il tuo conto di gioco è aperto e in verifica: scegli un nickname, poi carica il documento d'identità dalla "
        "pagina del conto.",
    "Identity approved: the account is %(state)s.": "Identità approvata: il conto è %(state)s.",
    "The player was asked to send the documents again.": "Al giocatore è stato chiesto di inviare di nuovo i documenti.",
    "Identity rejected: the account is %(state)s.": "Identità respinta: il conto è %(state)s.",
    "You were stood up: this stake would pass your spending limit.":
        "Sei stato fatto alzare: questa posta supererebbe il tuo limite di spesa.",
    "You were stood up: your gaming account cannot play for money now.":
        "Sei stato fatto alzare: ora il tuo conto di gioco non può giocare con denaro.",
    "Leave your table first: you cannot close the account while seated.":
        "Lascia prima il tavolo: non puoi chiudere il conto mentre sei seduto.",
    "You are registered in a tournament that has not finished: unregister or play it first.":
        "Sei iscritto a un torneo non ancora finito: cancellati o giocalo prima.",
    "compliance review": "verifica compliance",
    "Gaming account": "Conto di gioco",
    "Origin": "Origine",
    "KYC": "KYC",
    "review": "verifica",
    "Born": "Nato",
    "Residence": "Residenza",
    "Mobile": "Cellulare",
    "Document": "Documento",
    "valid until": "valido fino al",
    "ADM account code": "Codice conto ADM",
    "May": "Può",
    "Documents": "Documenti",
    "None in the current submission.": "Nessuno nell'invio attuale.",
    "Change the state": "Cambia lo stato",
    "Action": "Azione",
    "suspend": "sospendi",
    "reopen": "riapri",
    "block": "blocca",
    "unblock": "sblocca",
    "close": "chiudi",
    "Apply": "Applica",
    "Adjust the balance": "Rettifica il saldo",
    "State history": "Storia degli stati",
    "when": "quando",
    "state": "stato",
    "why": "perché",
    "by": "da",
    "system": "sistema",
    "KYC history": "Storia KYC",
    "in force": "in vigore",
    "used": "usato",
    "pending raise": "aumento in attesa",
    "resets": "si azzera",
    "Money in cents, time in minutes. Staff cannot change a player's limits.":
        "Denaro in centesimi, tempo in minuti. Lo staff non può cambiare i limiti di un giocatore.",
    "Young player (18-24).": "Giocatore giovane (18-24).",
    "History": "Storia",
    "No limit set.": "Nessun limite impostato.",
    "Self-exclusions": "Autoesclusioni",
    "indefinite": "a tempo indeterminato",
    "Nobody can lift or shorten a self-exclusion.": "Nessuno può revocare o accorciare un'autoesclusione.",
    "frozen": "congelato",
    "ADM code": "Codice ADM",
    "No movement.": "Nessun movimento.",
    "No deposit, withdrawal or payment instrument yet: the cashier arrives with regulation.md §5.":
        "Ancora nessun deposito, prelievo o strumento di pagamento: la cassa arriva con regulation.md §5.",
    "event": "evento",
    "channel": "canale",
    "device": "dispositivo",
    "browser": "browser",
    "No access recorded.": "Nessun accesso registrato.",
    "registered": "iscritto",
    "unregistered": "cancellato",
    "Lines sent": "Messaggi inviati",
    "Reports about the player": "Segnalazioni sul giocatore",
    "Reports by the player": "Segnalazioni del giocatore",
    "Shared addresses": "Indirizzi condivisi",
    "Frequent pairs": "Coppie frequenti",
    "Anti-money-laundering signals and cases arrive with regulation.md §6.":
        "Le segnalazioni e i casi antiriciclaggio arrivano con regulation.md §6.",
    "Note": "Nota",
    "A note for the other staff (kept forever)": "Una nota per il resto dello staff (conservata per sempre)",
    "Add note": "Aggiungi nota",
    "No note yet.": "Ancora nessuna nota.",
    "action": "azione",
    "I have read and accept the gaming contract, and I declare I am 18 or older.":
        "Ho letto e accetto il contratto di gioco e dichiaro di avere almeno 18 anni.",
    "Deposits per day": "Depositi al giorno",
    "Deposits per week": "Depositi a settimana",
    "Deposits per month": "Depositi al mese",
    "Spending per day": "Spesa al giorno",
    "Spending per week": "Spesa a settimana",
    "Spending per month": "Spesa al mese",
    "Time per day": "Tempo al giorno",
    "All money play": "Tutto il gioco con denaro",
    "Money tables": "Tavoli con denaro",
    "Your gaming account": "Il tuo conto di gioco",
    "Compliance asks you to send the documents again:": "La compliance ti chiede di inviare di nuovo i documenti:",
    "Money play": "Gioco con denaro",
    "Deposits": "Depositi",
    "Withdrawals": "Prelievi",
    "The law asks every player for their identity: complete it to deposit and withdraw.":
        "La legge chiede a ogni giocatore la sua identità: completala per depositare e prelevare.",
    "Complete your identity": "Completa la tua identità",
    "verified": "verificato",
    "A photo or scan of the front and of the back: JPEG, PNG or PDF, at most %(max_mb)s MB each. Only compliance "
    "sees them.":
        "Una foto o una scansione del fronte e del retro: JPEG, PNG o PDF, al massimo %(max_mb)s MB ciascuno. Li vede "
        "solo la compliance.",
    "Front side": "Fronte",
    "Back side": "Retro",
    "Nothing uploaded yet.": "Ancora nulla di caricato.",
    "Side": "Lato",
    "File": "File",
    "Upload": "Carica",
    "Responsible gaming": "Gioco responsabile",
    "Self-exclusion": "Autoesclusione",
    "Close the account": "Chiudi il conto",
    "Close your account": "Chiudi il tuo conto",
    "Close your gaming account": "Chiudi il tuo conto di gioco",
    "What closing means": "Cosa significa chiudere",
    "You can no longer log in, play, deposit or withdraw.": "Non potrai più accedere, giocare, depositare o prelevare.",
    "Your cash must be zero first: withdraw it (now %(cash)s).": "Prima i contanti devono essere a zero: prelevali (ora %(cash)s).",
    "Bonus money left is lost (now %(bonus)s); credits are play money and stay.":
        "Il bonus rimasto si perde (ora %(bonus)s); i crediti sono denaro per gioco e restano.",
    "You cannot be seated at a table or registered in a tournament that has not finished.":
        "Non puoi essere seduto a un tavolo né iscritto a un torneo non ancora finito.",
    "Your data is kept for 10 years, as the law requires. To reopen, contact customer care: identity documents are "
    "checked again.":
        "I tuoi dati sono conservati per 10 anni, come chiede la legge. Per riaprire, contatta l'assistenza clienti: i "
        "documenti d'identità vengono verificati di nuovo.",
    "If you want a break from gambling, a self-exclusion may be what you need.":
        "Se vuoi una pausa dal gioco, un'autoesclusione potrebbe essere ciò che ti serve.",
    "Why are you leaving? (optional)": "Perché te ne vai? (facoltativo)",
    "I want to close my gaming account.": "Voglio chiudere il mio conto di gioco.",
    "Close my account": "Chiudi il mio conto",
    "Your account was opened before the identity check became law. Give the same data as on your identity document "
    "and tessera sanitaria; you then upload the document and compliance checks it.":
        "Il tuo account è stato aperto prima che la verifica dell'identità diventasse obbligatoria. Indica gli stessi "
        "dati del documento d'identità e della tessera sanitaria; poi carichi il documento e la compliance lo verifica.",
    "Save my identity": "Salva la mia identità",
    "Limits protect you: lowering one holds at once, raising one holds after 7 days. Once set, a limit can be changed "
    "but never removed.":
        "I limiti ti proteggono: abbassarne uno vale subito, alzarlo vale dopo 7 giorni. Una volta impostato, un limite "
        "si può cambiare ma mai togliere.",
    "Limit": "Limite",
    "In force": "In vigore",
    "Used": "Usato",
    "Left": "Rimasto",
    "New value": "Nuovo valore",
    "not set": "non impostato",
    "new limit %(v)s from %(when)s": "nuovo limite %(v)s dal %(when)s",
    "new limit %(v)s min from %(when)s": "nuovo limite %(v)s min dal %(when)s",
    "Cancel the raise": "Annulla l'aumento",
    "The first value of a daily limit can be at most %(d)s for deposits, %(s)s for spending and %(t)s minutes (you "
    "are under 25).":
        "Il primo valore di un limite giornaliero può essere al massimo %(d)s per i depositi, %(s)s per la spesa e %(t)s "
        "minuti (hai meno di 25 anni).",
    "The first value of a daily limit can be at most %(d)s for deposits, %(s)s for spending and %(t)s minutes.":
        "Il primo valore di un limite giornaliero può essere al massimo %(d)s per i depositi, %(s)s per la spesa e %(t)s "
        "minuti.",
    "Save limits": "Salva i limiti",
    "Account not open": "Conto non aperto",
    "Your gaming account is not open": "Il tuo conto di gioco non è aperto",
    "You have been logged out. For help, contact customer care; for gambling problems, the free line TVNGA 800 558822.":
        "Sei stato disconnesso. Per aiuto contatta l'assistenza clienti; per problemi di gioco, il numero verde TVNGA "
        "800 558822.",
    "Your self-exclusions": "Le tue autoesclusioni",
    "with no end date": "senza data di fine",
    "revocable from": "revocabile dal",
    "until": "fino al",
    "national registry": "registro nazionale",
    "Exclude yourself from play": "Autoescluditi dal gioco",
    "While excluded you can log in, see your balance and history, and withdraw; tournaments you already entered are "
    "played. Every new money play, deposit and bonus is refused until the end date. Nobody, not even our staff, can "
    "end it early or shorten it. It is also sent to ADM.":
        "Durante l'autoesclusione puoi accedere, vedere saldo e storico e prelevare; i tornei a cui sei già iscritto si "
        "giocano. Ogni nuovo gioco con denaro, deposito e bonus è rifiutato fino alla data di fine. Nessuno, nemmeno il "
        "nostro staff, può terminarla prima o accorciarla. Viene anche comunicata ad ADM.",
    "All money play, deposits and bonuses": "Tutto il gioco con denaro, i depositi e i bonus",
    "Tournaments only": "Solo i tornei",
    "Money tables only": "Solo i tavoli con denaro",
    "For": "Per",
    "%(days)s day": ("%(days)s giorno", "%(days)s giorni"),
    "With no end date (revocable after 6 months)": "Senza data di fine (revocabile dopo 6 mesi)",
    "I understand it cannot be undone or shortened.": "Ho capito che non si può annullare né accorciare.",
    "Exclude me": "Escludimi",
    "Open your gaming account": "Apri il tuo conto di gioco",
    "Italian law asks us who you are before you play for money: the same data as on your identity document and "
    "tessera sanitaria. You will then upload a photo of the document, and we check it within 72 hours.":
        "La legge italiana ci chiede chi sei prima che tu giochi con denaro: gli stessi dati del documento d'identità e "
        "della tessera sanitaria. Poi caricherai una foto del documento, e la verifichiamo entro 72 ore.",
    "codice fiscale": "codice fiscale",
    "does not agree with": "non concorda con",
    "not valid": "non valido",
    "name letters": "lettere del nome",
    "age %(age)s": "età %(age)s",
    "registry unreachable": "registro non raggiungibile",
    "self-excluded in the national registry": "autoescluso nel registro nazionale",
    "not in the self-exclusion registry": "non presente nel registro delle autoesclusioni",
    "Identity (KYC)": "Identità (KYC)",
    "Identity checks (KYC)": "Verifiche d'identità (KYC)",
    "Account": "Conto",
    "overdue": "in ritardo",
    "Declared identity": "Identità dichiarata",
    "Sex": "Sesso",
    "Place of birth": "Luogo di nascita",
    "Checks": "Controlli",
    "Document images": "Immagini del documento",
    "Open the PDF": "Apri il PDF",
    "No document uploaded in this submission.": "Nessun documento caricato in questo invio.",
    "Decision": "Decisione",
    "Note (optional)": "Nota (facoltativa)",
    "Approve": "Approva",
    "What is wrong (the player sees it)": "Cosa non va (il giocatore lo vede)",
    "Ask for the documents again": "Chiedi di nuovo i documenti",
    "Reason for rejecting": "Motivo del rifiuto",
    "Reject and close the account": "Respingi e chiudi il conto",
    "Submissions waiting for review, oldest first. A red row has waited more than 72 hours.":
        "Invii in attesa di verifica, dal più vecchio. Una riga rossa attende da più di 72 ore.",
    "Waiting": "In attesa da",
    "%(hours)s hour": ("%(hours)s ora", "%(hours)s ore"),
    "Review": "Verifica",
    "Newer": "Più recenti",
    "Older": "Meno recenti",
    "No submission is waiting.": "Nessun invio in attesa.",
    "documents required": "documenti richiesti",
    "waiting for review": "in attesa di verifica",
    "asked to send again": "reinvio richiesto",
    "approved": "approvato",
    "rejected": "respinto",
    "account from before the check": "conto precedente alla verifica",
    "Open the player's page": "Apri la scheda del giocatore",
    "show the file": "mostra il file",
    "Session": "Sessione",
    "Played": "Giocato",
    "Won": "Vinto",
    "Balance": "Saldo",
    "Reality check": "Promemoria di gioco",
    "You have been playing for %(t)s: played %(p)s, won %(w)s, net %(n)s.":
        "Stai giocando da %(t)s: giocato %(p)s, vinto %(w)s, saldo netto %(n)s.",
    "Continue": "Continua",
    "Leave": "Esci",
    "See movements": "Vedi movimenti",
    "Your game sessions": "Le tue sessioni di gioco",
    "Started": "Iniziata",
    "Duration": "Durata",
    "open": "aperto",
    "No session yet.": "Ancora nessuna sessione.",
    "Last access: %(when)s": "Ultimo accesso: %(when)s",
    "You were logged out after 30 minutes without activity.": "Sei stato disconnesso dopo 30 minuti di inattività.",
    "You reached your daily time limit: new matches and registrations open again at midnight.":
        "Hai raggiunto il tuo limite di tempo giornaliero: nuove partite e iscrizioni riaprono a mezzanotte.",
    "Answer the reality check first: it shows how long you have played and what you won and lost.":
        "Rispondi prima al promemoria di gioco: mostra da quanto giochi e quanto hai vinto e perso.",
    "continue, leave or history.": "continue, leave o history.",
    "No reality check is waiting for an answer.": "Nessun promemoria di gioco attende una risposta.",
    "game session": "sessione di gioco",
    "Game sessions": "Sessioni di gioco",
    "started": "iniziata",
    "ended": "finita",
    "minutes": "minuti",
    "played": "giocato",
    "won": "vinto",
    "No game session yet.": "Ancora nessuna sessione di gioco.",
    "Access log": "Registro accessi",
    "game sessions": "sessioni di gioco",
    "Gambling is forbidden to minors and can cause pathological addiction.":
        "Il gioco è vietato ai minori e può causare dipendenza patologica.",
    "Help line": "Numero verde",
    "Telefono Verde Nazionale per le problematiche legate al Gioco d'Azzardo":
        "Telefono Verde Nazionale per le problematiche legate al Gioco d'Azzardo",
    "ADM concession": "Concessione ADM",
    "Play for fun, not for money": "Gioca per divertirti, non per guadagnare",
    "Gambling is forbidden to minors and can cause pathological addiction. If you feel that gambling is a problem for "
    "you or for someone close to you, call the free help line.":
        "Il gioco è vietato ai minori e può causare dipendenza patologica. Se senti che il gioco è un problema per te o "
        "per una persona vicina, chiama il numero verde gratuito.",
    "Your tools": "I tuoi strumenti",
    "deposits and spending per day, week and month, and time per day; lowering one holds at once, raising one after "
    "7 days.":
        "depositi e spesa al giorno, alla settimana e al mese, e tempo al giorno; abbassarne uno vale subito, alzarlo "
        "dopo 7 giorni.",
    "from 7 to 270 days or with no end date, from all money play, from tournaments or from money tables; it is also "
    "recorded in the national registry, and nobody can shorten it.":
        "da 7 a 270 giorni o senza data di fine, da tutto il gioco con denaro, dai tornei o dai tavoli con denaro; viene "
        "registrata anche nel registro nazionale e nessuno può accorciarla.",
    "Your account page shows your state, and closing the account is always possible.":
        "La pagina del conto mostra il tuo stato, e chiudere il conto è sempre possibile.",
    "Robots, timeouts and leaving a match": "Robot, tempi scaduti e abbandono di una partita",
    "When a player's turn time runs out, a robot makes a legal move for that seat; a player who comes back takes the "
    "seat again.":
        "Quando il tempo del turno di un giocatore scade, un robot fa una mossa valida per quel posto; chi torna riprende "
        "il suo posto.",
    "A player who leaves a match in play, or does not come back in time, has abandoned it: a robot plays the seat to "
    "the end and the stake stays in the match.":
        "Chi lascia una partita in corso, o non torna in tempo, l'ha abbandonata: un robot gioca il posto fino alla fine "
        "e la posta resta nella partita.",
    "No match is played by robots alone: when no human is present, the match waits and then ends with the stakes "
    "returned.":
        "Nessuna partita è giocata solo da robot: quando non c'è nessun giocatore umano, la partita aspetta e poi "
        "termina con le poste restituite.",
    "A poker hand a player leaves is folded for them; robots never put chips in for an absent player.":
        "Una mano di poker lasciata da un giocatore viene passata per lui; i robot non puntano mai fiches per un "
        "giocatore assente.",
}
