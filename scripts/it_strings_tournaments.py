"""Italian for the tournaments' strings: service refusals, pausing registrations,
disqualifications (loaded by scripts/fill_po.py beside it_strings.py)."""

IT = {
    "Registrations paused.": "Iscrizioni sospese.",
    "Registrations resumed.": "Iscrizioni riaperte.",
    "Pause registrations": "Sospendi le iscrizioni",
    "Resume registrations": "Riapri le iscrizioni",
    "Pause or resume the registrations (asks for a reason)": "Sospendi o riapri le iscrizioni (chiede un motivo)",
    "Choose exactly one tournament.": "Scegli un solo torneo.",
    "A non-negative whole number of cents.": "Un numero intero di centesimi, non negativo.",
    "The entry cost must be a multiple of €0.50 (50 cents).":
        "Il costo di partecipazione deve essere un multiplo di €0,50 (50 centesimi).",
    "The entry cost may be at most €%(max)s (%(cents)s cents).":
        "Il costo di partecipazione può essere al massimo €%(max)s (%(cents)s centesimi).",
    "A freeroll has no fee.": "Un freeroll non ha commissione.",
    "The fee may be at most %(percent)s per cent of the entry cost.":
        "La commissione può essere al massimo il %(percent)s per cento del costo di partecipazione.",
    "No such tournament.": "Torneo inesistente.",
    "Unknown field.": "Campo sconosciuto.",
    "1 to 100 characters.": "Da 1 a 100 caratteri.",
    "A registered game: %(games)s.": "Un gioco disponibile: %(games)s.",
    "This game cannot be played heads-up (one player a side).":
        "Questo gioco non si può giocare testa a testa (un giocatore per parte).",
    "sit_and_go or scheduled.": "sit_and_go oppure scheduled.",
    "knockout or points.": "knockout oppure points.",
    "A whole number of cents, 0 or more.": "Un numero intero di centesimi, 0 o più.",
    "A freeroll needs a guaranteed prize pool above 0.": "Un freeroll richiede un montepremi garantito maggiore di 0.",
    "cash, bonus or satellite.": "cash, bonus oppure satellite.",
    "Bonus prizes only for a freeroll (entry cost 0).": "Premi in bonus solo per un freeroll (costo di partecipazione 0).",
    "A whole number from 2 to 512.": "Un numero intero da 2 a 512.",
    "At most max_players.": "Al massimo max_players.",
    "A Sit and Go starts when full: min_players equals max_players.":
        "Un Sit and Go parte quando è completo: min_players è uguale a max_players.",
    "A knockout Sit and Go needs a power of two (2, 4, 8, 16, ...).":
        "Un Sit and Go a eliminazione diretta richiede una potenza di due (2, 4, 8, 16, ...).",
    "An ISO 8601 date and time with its time zone.": "Una data e un'ora ISO 8601 con il fuso orario.",
    "Required for a scheduled tournament.": "Obbligatorio per un torneo programmato.",
    "It must be in the future.": "Deve essere nel futuro.",
    "A Sit and Go has no start time: it starts when full.": "Un Sit and Go non ha un orario: parte quando è completo.",
    "Whole percentages from 1 to 100, non-increasing, summing to 100.":
        "Percentuali intere da 1 a 100, non crescenti, con somma 100.",
    "At most max_players places.": "Al massimo max_players posizioni.",
    "Only for the points format.": "Solo per la formula a punti.",
    "From 1 to 15.": "Da 1 a 15.",
    "From 10 to 120 seconds.": "Da 10 a 120 secondi.",
    "A JSON object of the game's options.": "Un oggetto JSON con le opzioni del gioco.",
    "The id of the tournament whose seats this satellite awards.":
        "L'id del torneo di cui questo satellite assegna i posti.",
    "An open tournament with an entry cost, paying cash or seats.":
        "Un torneo aperto con costo di partecipazione, che paga in denaro o in posti.",
    "Only for prize 'satellite'.": "Solo con premio 'satellite'.",
    "The tournament is not valid (%(field)s: %(error)s)": "Il torneo non è valido (%(field)s: %(error)s)",
    "The tournament has started: it can no longer be edited.": "Il torneo è iniziato: non si può più modificare.",
    "Players have registered: only the name can change now.":
        "Ci sono giocatori iscritti: ora si può cambiare solo il nome.",
    "Cannot change after the first registration.": "Non si può cambiare dopo la prima iscrizione.",
    "A reason is required (at most 500 characters).": "Il motivo è obbligatorio (al massimo 500 caratteri).",
    "A non-empty reason of at most 500 characters.": "Un motivo non vuoto di al massimo 500 caratteri.",
    "The tournament has already started.": "Il torneo è già iniziato.",
    "Registrations are already paused.": "Le iscrizioni sono già sospese.",
    "Registrations are not paused.": "Le iscrizioni non sono sospese.",
    "Registrations for this tournament are paused by the operator: %(reason)s":
        "Le iscrizioni a questo torneo sono sospese dall'operatore: %(reason)s",
    "Registration for this tournament is closed.": "Le iscrizioni a questo torneo sono chiuse.",
    "You are already registered for this tournament.": "Sei già iscritto a questo torneo.",
    "The tournament is full.": "Il torneo è al completo.",
    "The entry costs €%(entry)s: your bonus and cash together are €%(balance)s.":
        "La partecipazione costa €%(entry)s: bonus e contanti insieme ti danno €%(balance)s.",
    "No such registration.": "Iscrizione inesistente.",
    "You are not registered for this tournament.": "Non sei iscritto a questo torneo.",
    "Registration has closed: you can no longer unregister.": "Le iscrizioni sono chiuse: non puoi più ritirarti.",
    "A Sit and Go starts by itself when it is full.": "Un Sit and Go parte da solo quando è completo.",
    "%(n)s registered: at least %(least)s are needed.": "%(n)s iscritti: ne servono almeno %(least)s.",
    "The tournament has finished: it cannot be cancelled.": "Il torneo è terminato: non si può annullare.",
    "The tournament is already cancelled.": "Il torneo è già annullato.",
    "While paused nobody can register; registered players may still unregister until registration closes. "
    "The tournament page tells the players why.":
        "Durante la sospensione nessuno può iscriversi; gli iscritti possono ancora ritirarsi fino alla chiusura "
        "delle iscrizioni. La pagina del torneo spiega ai giocatori il motivo.",
    "Paused: %(reason)s": "Sospese: %(reason)s",
    "Reason (required, shown in the audit log)": "Motivo (obbligatorio, registrato nel registro di controllo)",
    "Registrations are paused by the operator.": "Le iscrizioni sono sospese dall'operatore.",
    "won by forfeit (disqualification)": "vinta a tavolino (squalifica)",
    "disqualified": "squalificato",
    "started": "iniziato",
    "tournament status\x04open": "aperto",
    "tournament status\x04in progress": "in corso",
    "tournament status\x04finished": "concluso",
    "tournament status\x04cancelled": "annullato",
    "match status\x04in play": "in corso",
    "match status\x04finished": "conclusa",
    "match status\x04cancelled": "annullata",
    # a tournament match's page
    "Play your match": "Gioca la tua partita",
    "Back to the tournament": "Torna al torneo",
    "You are watching this tournament match: only its players see their own cards.":
        "Stai guardando questa partita del torneo: solo i suoi giocatori vedono le proprie carte.",
    "A tournament match: when your time runs out the Robot plays your turn, and the next round starts without asking.":
        "Una partita del torneo: quando il tuo tempo scade il Robot gioca il tuo turno, e il turno successivo del torneo inizia senza chiedere conferma.",
    "There is no chat in a tournament match.": "Nelle partite del torneo non c'è la chat.",
    "A tournament match cannot be cancelled by agreement.":
        "Una partita del torneo non si può annullare di comune accordo.",
}
