"""Italian for the interface strings (source strings are English)."""

IT = {
    "Nickname": "Nickname",
    "3-16 characters: letters, digits and underscore, starting with a letter.":
        "Da 3 a 16 caratteri: lettere, cifre e trattino basso, iniziando con una lettera.",
    "Staff accounts do not play and have no nickname.": "Gli account dello staff non giocano e non hanno nickname.",
    "Welcome, %(nickname)s! You received 300 credits to play with.":
        "Benvenuto, %(nickname)s! Hai ricevuto 300 crediti per giocare.",
    "Recharge requested: %(credits)s credits arrive at %(at)s.":
        "Ricarica richiesta: %(credits)s crediti arriveranno alle %(at)s.",
    "Italiano": "Italiano",
    "English": "English",
    "Lobby": "Lobby",
    "Profile": "Profilo",
    "Administration": "Amministrazione",
    "Log out": "Esci",
    "Log in": "Accedi",
    "Sign up": "Registrati",
    "Language": "Lingua",
    "This page does not exist.": "Questa pagina non esiste.",
    "You are not allowed to see this page.": "Non hai il permesso di vedere questa pagina.",
    "Something went wrong: the request was not completed.": "Qualcosa è andato storto: la richiesta non è stata completata.",
    "Games": "Giochi",
    "players: %(counts)s": "giocatori: %(counts)s",
    "New here?": "Sei nuovo?",
    "Choose your nickname": "Scegli il tuo nickname",
    "Other players see you by your nickname. It cannot be changed later.":
        "Gli altri giocatori ti vedono con il tuo nickname. Non potrai cambiarlo in seguito.",
    "Confirm": "Conferma",
    "Username": "Nome utente",
    "Active sanctions": "Sanzioni attive",
    "until %(end)s": "fino al %(end)s",
    "permanent": "permanente",
    "Wallet": "Portafoglio",
    "Your balances are frozen by a sanction.": "I tuoi saldi sono congelati da una sanzione.",
    "Cash": "Contanti",
    "Bonus": "Bonus",
    "Credits": "Crediti",
    "Ask for a credits recharge": "Chiedi una ricarica di crediti",
    "300 credits, two hours after the request, when you have fewer than 50; at most twice a day.":
        "300 crediti, due ore dopo la richiesta, quando ne hai meno di 50; al massimo due volte al giorno.",
    "Latest movements": "Ultimi movimenti",
    "When": "Quando",
    "What": "Cosa",
    "Currency": "Valuta",
    "Amount": "Importo",
    "Balance": "Saldo",
    "No movements yet.": "Ancora nessun movimento.",
    "Create account": "Crea account",
    "Already registered?": "Sei già registrato?",
    "A nickname has 3 to 16 characters: ASCII letters, digits and underscore, starting with a letter (no spaces).":
        "Un nickname ha da 3 a 16 caratteri: lettere ASCII, cifre e trattino basso, e inizia con una lettera"
        " (niente spazi).",
    "Choose a nickname.": "Scegli un nickname.",
    "The nickname '%(nickname)s' is not valid.": "Il nickname '%(nickname)s' non è valido.",
    "The nickname '%(nickname)s' is reserved: choose another one.":
        "Il nickname '%(nickname)s' è riservato: scegline un altro.",
    "The nickname '%(nickname)s' is already taken: choose another one.":
        "Il nickname '%(nickname)s' è già in uso: scegline un altro.",
    "Your nickname is already '%(nickname)s': it cannot be changed.":
        "Il tuo nickname è già '%(nickname)s': non può essere cambiato.",
    "Tables": "Tavoli",
    "Rankings": "Classifiche",
    "My matches": "Le mie partite",
    "Too many failed logins: this account or address is locked. Try again in %(minutes)s minutes.":
        "Troppi accessi falliti: questo account o indirizzo è bloccato. Riprova tra %(minutes)s minuti.",
    "The request was not accepted: “%(field)s” holds a character that is not allowed (such as a NUL byte)"
    " or a value out of range. Nothing was changed.":
        "La richiesta non è stata accettata: “%(field)s” contiene un carattere non ammesso (come un byte NUL)"
        " o un valore fuori intervallo. Non è stato modificato nulla.",
    "Go back and correct it": "Torna indietro e correggi",
    "This match is in play: until it ends, staff see only what a spectator sees (no hand, no undealt card, "
    "no seed, no log). The log and every seat's replay open when it is over.":
        "Questa partita è in corso: finché non finisce lo staff vede solo ciò che vede uno spettatore (nessuna "
        "mano, nessuna carta non distribuita, nessun seed di mescolamento, nessun registro). Il registro e la replica di ogni "
        "posto si aprono a partita finita.",
    "Live, version %(version)s": "In diretta, versione %(version)s",
    "You asked for the next match.": "Hai chiesto la prossima partita.",
    "Waiting for:": "In attesa di:",
    "Waiting for players to fill the free seats.": "In attesa di giocatori per i posti liberi.",
    "Play again": "Gioca ancora",
    "Ready:": "Pronti:",
    "Whoever has not confirmed in <span class=\"left\">%(left)s</span> s leaves the seat, charged nothing.":
        "Chi non conferma entro <span class=\"left\">%(left)s</span> s lascia il posto, senza alcun addebito.",
    'full refund (cancelled before the start)':
        "rimborso completo (annullato prima dell'inizio)",
    'a1: eliminated in an unpaid position':
        'a1: eliminato in una posizione senza premio',
    'a2: eliminated in a paid position, its prize':
        'a2: eliminato in una posizione a premio, il suo premio',
    'b1: still in play, equal share of the residual pool':
        'b1: ancora in gioco, quota uguale del montepremi residuo',
    'b2: still in play, entry (or foreseen prize) plus a share by victory points':
        "b2: ancora in gioco, costo d'iscrizione (o premio previsto) più una quota in base ai punti vittoria",
    'b2 scaled down: equal share of the residual pool':
        'b2 ridotto: quota uguale del montepremi residuo',
    'open':
        'aperto',
    'in progress':
        'in corso',
    'finished':
        'concluso',
    'cancelled':
        'annullato',
    'playing':
        'in gioco',
    'eliminated':
        'eliminato',
    'winner':
        'vincitore',
    'bye':
        'turno libero',
    'You are registered: good luck!':
        'Sei iscritto: buona fortuna!',
    'You are no longer registered: your entry has been refunded.':
        'Non sei più iscritto: la quota ti è stata rimborsata.',
    'Tournaments':
        'Tornei',
    'knockout, heads-up':
        'eliminazione diretta, testa a testa',
    'points, %(rounds)s rounds':
        'a punti, %(rounds)s turni',
    'points, one round per doubling of the players':
        'a punti, un turno per ogni raddoppio dei giocatori',
    'starts':
        'inizio',
    'Entry':
        'Iscrizione',
    'free (freeroll)':
        'gratuita (freeroll)',
    'Players':
        'Giocatori',
    'min %(lo)s, max %(hi)s':
        'min %(lo)s, max %(hi)s',
    'Prize pool':
        'Montepremi',
    'in bonus':
        'in bonus',
    'Guaranteed':
        'Garantito',
    'the operator adds %(o)s':
        "l'operatore aggiunge %(o)s",
    'Registration closes':
        'Chiusura iscrizioni',
    'Round':
        'Turno',
    'Satellite: %(seats)s seat(s) in “%(target)s” (worth %(price)s each).':
        'Satellite: %(seats)s posto/i in “%(target)s” (del valore di %(price)s ciascuno).',
    'The best-placed player without a seat wins %(left)s in cash.':
        'Il miglior classificato senza posto vince %(left)s in contanti.',
    'Prizes by position':
        'Premi per posizione',
    'Computed for the players registered now; fixed at the start.':
        "Calcolati sugli iscritti attuali; fissati all'inizio.",
    'Register (%(e)s)':
        'Iscriviti (%(e)s)',
    'Register (free)':
        'Iscriviti (gratis)',
    'Log in to register.':
        'Accedi per iscriverti.',
    'You are registered.':
        'Sei iscritto.',
    'Unregister and get the entry back':
        "Annulla l'iscrizione e riavrai la quota",
    'You are registered. Registration has closed.':
        'Sei iscritto. Le iscrizioni sono chiuse.',
    'Registration is closed.':
        'Le iscrizioni sono chiuse.',
    'Tournament cancelled':
        'Torneo annullato',
    'Your refund':
        'Il tuo rimborso',
    'Credited to your wallet: bonus back to bonus, cash back to cash.':
        'Accreditato nel tuo portafoglio: il bonus torna bonus, i contanti tornano contanti.',
    'Being credited…':
        'In accredito…',
    'Refunded %(n)s of %(total)s':
        'Rimborsati %(n)s su %(total)s',
    'in progress (a stopped run finishes at the next tick)':
        "in corso (un'esecuzione interrotta riprende al prossimo controllo)",
    'Player':
        'Giocatore',
    'Status':
        'Stato',
    'Position':
        'Posizione',
    'Rule':
        'Regola',
    'Refund':
        'Rimborso',
    'Parts':
        'Parti',
    'Paid':
        'Pagato',
    'Bracket':
        'Tabellone',
    'Final':
        'Finale',
    'Semi-finals':
        'Semifinali',
    'Round %(n)s':
        'Turno %(n)s',
    'replay':
        'ripetizione',
    'in play':
        'in corso',
    'to be drawn':
        'da sorteggiare',
    'Standings':
        'Classifica',
    'Prize':
        'Premio',
    'still in at the cancellation':
        "ancora in gioco all'annullamento",
    'Registered players: %(n)s':
        'Giocatori iscritti: %(n)s',
    'Nobody yet: be the first.':
        'Ancora nessuno: iscriviti per primo.',
    'All games':
        'Tutti i giochi',
    'Tournament':
        'Torneo',
    'Start':
        'Inizio',
    'knockout':
        'eliminazione diretta',
    'points':
        'a punti',
    'freeroll':
        'freeroll',
    'bonus prizes':
        'premi in bonus',
    'satellite':
        'satellite',
    '%(g)s guaranteed':
        '%(g)s garantiti',
    'free':
        'gratis',
    'No tournaments right now: come back soon.':
        'Nessun torneo in questo momento: torna presto.',
}
