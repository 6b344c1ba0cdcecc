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

# the table a player plays at, the replay (issue 12, helper h5)
IT.update({
    "Knock (I play)": "Busso (gioco)", "Pass": "Passo", "Keep my cards": "Tengo le carte", "Play blind": "Al buio",
    "Declare": "Accuso", "Bid": "Dichiarazione", "Draw": "Pesco", "Discard": "Scarto",
    "%(card)s takes %(n)s cards": "%(card)s prende %(n)s carte", "%(card)s, taking nothing": "%(card)s, senza prendere",
    "Nil (0)": "Nil (0)", "Bid %(n)s": "Dichiaro %(n)s", "Declare %(what)s": "Accuso %(what)s",
    "Robot": "Robot", "a free seat": "un posto libero", "Cards taken": "Carte prese", "Scope this hand": "Scope della mano",
    "Score": "Punteggio", "Hand %(n)s · the first to %(target)s points wins": "Mano %(n)s · vince chi arriva a %(target)s punti",
    "Hand %(n)s of %(of)s": "Mano %(n)s di %(of)s", "Tie-break hand": "Mano di spareggio", "Cards": "Carte",
    "Coins": "Denari", "Settebello": "Settebello", "Primiera": "Primiera", "Scope": "Scope", "Piccola": "Piccola",
    "Grande": "Grande", "Declarations": "Accusi", "Points taken": "Punti presi", "Hands won": "Mani vinte",
    "61 points win the hand": "Con 61 punti si vince la mano", "Tricks this hand": "Prese della mano", "Total": "Totale",
    "Tressette a perdere: the fewest points win": "Tressette a perdere: vince chi fa meno punti",
    "Last hand: %(points)s": "Ultima mano: %(points)s", "Points this hand": "Punti della mano",
    "Hand %(n)s · the match ends at %(target)s points: the fewest win":
        "Mano %(n)s · la partita finisce a %(target)s punti: vince chi ne ha meno",
    "Hand %(n)s of %(of)s · the fewest points win": "Mano %(n)s di %(of)s · vince chi ha meno punti",
    "Everyone passes three cards to the player on their right": "Ognuno passa tre carte al giocatore alla sua destra",
    "Hearts are broken": "I cuori sono aperti", "Nil": "Nil", "Tricks": "Prese", "Bags": "Sacchetti",
    "The first team to %(target)s points wins": "Vince la prima squadra che arriva a %(target)s punti",
    "Spades are broken": "Le picche sono aperte", "plays": "gioca", "passes": "passa", "keeps the cards": "tiene le carte",
    "blind": "al buio", "Declared": "Dichiarazione", "Pot: %(pot)s stakes": "Piatto: %(pot)s poste",
    "Bestia last hand: %(names)s": "Bestia nell'ultima mano: %(names)s",
    "That move is not allowed now: choose one of the cards or buttons offered.":
        "Questa mossa ora non è consentita: scegli una delle carte o dei pulsanti proposti.",
    "It is not your turn.": "Non tocca a te.", "This match is over.": "Questa partita è finita.",
    "Too many messages: slow down.": "Troppi messaggi: rallenta.",
    "coins": "denari", "cups": "coppe", "swords": "spade", "batons": "bastoni",
    "hearts": "cuori", "diamonds": "quadri", "clubs": "fiori", "spades": "picche",
    "the Ace of %(suit)s": "l'Asso di %(suit)s", "the 2 of %(suit)s": "il 2 di %(suit)s",
    "the 3 of %(suit)s": "il 3 di %(suit)s", "the 4 of %(suit)s": "il 4 di %(suit)s",
    "the 5 of %(suit)s": "il 5 di %(suit)s", "the 6 of %(suit)s": "il 6 di %(suit)s",
    "the 7 of %(suit)s": "il 7 di %(suit)s", "the Jack of %(suit)s": "il Fante di %(suit)s",
    "the Knight of %(suit)s": "il Cavallo di %(suit)s", "the King of %(suit)s": "il Re di %(suit)s",
    "the 8 of %(suit)s": "l'8 di %(suit)s", "the 9 of %(suit)s": "il 9 di %(suit)s",
    "the 10 of %(suit)s": "il 10 di %(suit)s", "the Queen of %(suit)s": "la Donna di %(suit)s",
    "the Joker": "il Jolly", "%(first)s and %(last)s": "%(first)s e %(last)s",
    "%(name)s knocks: plays this hand": "%(name)s bussa: gioca la mano", "%(name)s passes": "%(name)s passa",
    "%(name)s keeps the cards": "%(name)s tiene le carte", "%(name)s plays blind": "%(name)s gioca al buio",
    "%(name)s plays %(card)s": "%(name)s gioca %(card)s",
    "%(name)s plays %(card)s, takes %(taken)s": "%(name)s gioca %(card)s, prende %(taken)s",
    "Scopa!": "Scopa!", "%(name)s passes three cards": "%(name)s passa tre carte",
    "%(name)s bids nil": "%(name)s dichiara nil", "%(name)s bids %(bid)s": "%(name)s dichiara %(bid)s",
    "%(name)s declares %(what)s": "%(name)s accusa %(what)s", "%(name)s discards": "%(name)s scarta",
    "%(name)s draws": "%(name)s pesca", "%(name)s moves": "%(name)s muove",
    "You won!": "Hai vinto!", "You lost.": "Hai perso.", "A draw.": "Pareggio.",
    "Cancel this match by agreement?": "Annullare la partita di comune accordo?", "In favour:": "Favorevoli:",
    "<span class=\"left\">%(left)s</span> s to answer.": "<span class=\"left\">%(left)s</span> s per rispondere.",
    "Accept: cancel the match": "Accetto: annulliamo la partita", "Refuse: keep playing": "Rifiuto: continuiamo",
    "You accepted: waiting for the others.": "Hai accettato: si attendono gli altri.",
    "%(names)s refused to cancel: the match goes on.": "%(names)s ha rifiutato l'annullamento: la partita continua.",
    "Choose three cards to pass to %(name)s (on your right).":
        "Scegli tre carte da passare a %(name)s (alla tua destra).",
    "You passed:": "Hai passato:", "you received:": "hai ricevuto:", "Your turn": "Tocca a te", "Your hand": "La tua mano",
    "wait for your turn": "attendi il tuo turno", "Confirm (%(a)s to %(b)s cards)": "Conferma (da %(a)s a %(b)s carte)",
    "Confirm (%(n)s cards)": "Conferma (%(n)s carte)", "Several captures: choose one": "Più prese possibili: scegline una",
    "Which cards do you take?": "Quali carte prendi?", "nothing": "niente",
    "Propose to cancel the match": "Proponi di annullare la partita",
    "Leave the table? During a match it counts as abandoning it.":
        "Lasciare il tavolo? Durante una partita è un abbandono.",
    "Leave the table": "Lascia il tavolo", "Sit down": "Siediti", "Add a Robot": "Aggiungi un Robot",
    "Waiting for players: the match starts when every seat is taken.":
        "In attesa dei giocatori: la partita inizia quando tutti i posti sono occupati.",
    "Match over.": "Partita finita.", "Winner: %(names)s.": "Vince: %(names)s.",
    "Prize %(prize)s (pot %(pot)s, the bank keeps 20%%: %(bank)s).":
        "Premio %(prize)s (piatto %(pot)s, al banco il 20%%: %(bank)s).",
    "Prize %(prize)s credits (pot %(pot)s, the bank keeps 20%%: %(bank)s).":
        "Premio %(prize)s crediti (piatto %(pot)s, al banco il 20%%: %(bank)s).",
    "A practice match: no stake, no XP.": "Partita di allenamento: nessuna posta, nessun XP.", "XP:": "XP:",
    "Match cancelled": "Partita annullata",
    "by agreement: nobody wins, the stakes go back to the players.":
        "di comune accordo: nessuno vince, le poste tornano ai giocatori.",
    "Players": "Giocatori", "table leader": "capotavolo", "free seat": "posto libero", "the Robot plays": "gioca il Robot",
    "left": "ha abbandonato", "connected": "connesso", "not connected": "non connesso", "dealer": "mazziere",
    "to play": "di turno", "players: %(n)s": "giocatori: %(n)s", "official": "ufficiale", "practice": "amichevole",
    "stake": "posta", "%(n)s credits": "%(n)s crediti", "%(s)s s a turn": "%(s)s s per turno", "private": "privato",
    "no spectators": "senza spettatori", "%(names)s to play": "Tocca a %(names)s", "Dealer": "Mazziere",
    "team A": "squadra A", "team B": "squadra B", "out of this hand": "fuori da questa mano",
    "took the last trick": "ultima presa", "cards: %(n)s": "carte: %(n)s", "Cards on the table": "Carte in tavola",
    "The table is empty.": "Il tavolo è vuoto.", "cards left in the deck: %(n)s": "carte nel mazzo: %(n)s",
    "Trump:": "Briscola:", "deck:": "mazzo:", "Last trick, taken by %(name)s:": "Ultima presa, di %(name)s:",
    "Hand %(n)s: the count": "Mano %(n)s: il conteggio", "Points": "Punti", "table %(n)s": "tavolo %(n)s",
    "Chat": "Chat", "Every message is recorded.": "Tutti i messaggi vengono registrati.",
    "Write a message": "Scrivi un messaggio", "Message": "Messaggio", "Send": "Invia",
    "Replay: %(game)s, match %(n)s": "Replay: %(game)s, partita %(n)s", "Replay: %(game)s": "Replay: %(game)s",
    "the match as you saw it from your seat.": "la partita come l'hai vista dal tuo posto.", "Steps": "Passi",
    "First step": "Primo passo", "Start": "Inizio", "Previous move": "Mossa precedente", "Back": "Indietro",
    "Move %(n)s of %(of)s": "Mossa %(n)s di %(of)s", "Next move": "Mossa successiva", "Next": "Avanti",
    "Last step": "Ultimo passo", "End": "Fine", "The deal: the cards as they were dealt to you.":
        "La distribuzione: le carte come ti sono state servite.", "Moves": "Mosse",
    "Spectator": "Spettatore",
})

# issue 12 (h4): card faces, lobby and forms, rules, profile, domain errors
IT.update({
    "Staff do not chat as players.": "Lo staff non scrive in chat come giocatore.",
    "Write something first: the message is empty.": "Scrivi qualcosa: il messaggio è vuoto.",
    "A message has at most %(n)s characters.": "Un messaggio ha al massimo %(n)s caratteri.",
    "Slow down: at most %(limit)s messages in %(seconds)s seconds.":
        "Rallenta: al massimo %(limit)s messaggi in %(seconds)s secondi.",
    "Which message? Give its id.": "Quale messaggio? Indica il suo id.",
    "No such message.": "Messaggio inesistente.",
    "The request is not valid.": "La richiesta non è valida.",
    "Invalid input.": "Dati non validi.",
    "Not found.": "Non trovato.",
    "There is not enough money in the wallet for this.": "Nel portafoglio non c'è abbastanza denaro per questo.",
    "Staff accounts cannot play, register, sit or chat as players.":
        "Gli account dello staff non possono giocare, iscriversi, sedersi o scrivere in chat come giocatori.",
    "Choose a nickname first: it is needed to play, register and chat.":
        "Scegli prima un nickname: serve per giocare, iscriversi e scrivere in chat.",
    "chat ban": "esclusione dalla chat",
    "lobby ban": "esclusione dalla lobby",
    "account suspension": "sospensione dell'account",
    "report to the authority": "segnalazione all'autorità",
    "Your account has an active %(kind)s, permanently.": "Sul tuo account è attiva una %(kind)s, a tempo indeterminato.",
    "Your account has an active %(kind)s until %(end)s (Rome time).":
        "Sul tuo account è attiva una %(kind)s fino al %(end)s (ora di Roma).",
    "Italian cards": "Carte italiane",
    "Napoletane": "Napoletane",
    "Piacentine": "Piacentine",
    "Choose Napoletane or Piacentine.": "Scegli Napoletane o Piacentine.",
    "Adjustment by the operator": "Rettifica dell'operatore",
    "Forfeit (authority)": "Confisca (autorità)",
    "Frozen (authority)": "Congelamento (autorità)",
    "Released (authority)": "Sblocco (autorità)",
    "Bank's share": "Quota del banco",
    "Passport credits": "Crediti del passaporto",
    "Credits recharge": "Ricarica di crediti",
    "Welcome credits": "Crediti di benvenuto",
    "Match settlement": "Liquidazione della partita",
    "Stake released": "Posta sbloccata",
    "Stake": "Posta",
    "Stake returned": "Posta restituita",
    "Winnings": "Vincita",
    "cash": "contanti",
    "bonus": "bonus",
    "credits": "crediti",
    "Card faces saved.": "Carte salvate.",
    "Match decided by": "La partita si decide a",
    "Points to win": "Punti per vincere",
    "Hands": "Mani",
    "Knockout (every hand counts)": "Eliminazione diretta (conta ogni mano)",
    "Rounds": "Giri",
    "Playing blind allowed": "Gioco al buio ammesso",
    "Variant": "Variante",
    "At most hands": "Massimo di mani",
    "Ante": "Invito (ante)",
    "Minimum bet": "Puntata minima",
    "Maximum bet (0: no limit)": "Puntata massima (0: nessun limite)",
    "Starting chips": "Fiches iniziali",
    "Opening": "Apertura",
    "Blind opening allowed": "Apertura al buio ammessa",
    "Most cards changed": "Massimo di carte cambiate",
    "Elimination at": "Eliminazione a",
    "Entry fee (chips)": "Quota d'ingresso (fiches)",
    "Re-entry fee (chips)": "Quota di rientro (fiches)",
    "Re-entries allowed": "Rientri ammessi",
    "Cards turned from the stock": "Carte girate dal mazzo",
    "Times the stock turns over (-1: no limit)": "Giri del mazzo (-1: senza limite)",
    "Most moves": "Massimo di mosse",
    "Ante doubles every (hands)": "L'invito raddoppia ogni (mani)",
    "points": "punti",
    "hands won": "mani vinte",
    "last one standing": "fino all'ultimo in gioco",
    "with a pair of jacks or better": "con coppia di jack o meglio",
    "free": "libera",
    "to win (a vincere)": "a vincere",
    "to lose (a perdere)": "a perdere",
    "open": "aperto",
    "open, dirty allowed": "aperto, sporco ammesso",
    "closed": "chiuso",
    "closed, clean burraco to close": "chiuso, burraco pulito per chiudere",
    "closed, dirty allowed": "chiuso, sporco ammesso",
    "no target (hands only)": "nessun traguardo (solo mani)",
    "yes": "sì",
    "no": "no",
    "No such table.": "Tavolo inesistente.",
    "Sitting here needs %(need)s in cash (bonus does not count): your balance is %(balance)s.":
        "Per sederti qui servono %(need)s in contanti (il bonus non conta): il tuo saldo è %(balance)s.",
    "Sitting here needs %(need)s credits: your balance is %(balance)s.":
        "Per sederti qui servono %(need)s crediti: il tuo saldo è %(balance)s.",
    "Unknown game.": "Gioco sconosciuto.",
    "One of: %(games)s.": "Uno tra: %(games)s.",
    "Players for %(game)s: %(counts)s.": "Giocatori per %(game)s: %(counts)s.",
    "A non-negative amount.": "Un importo non negativo.",
    "Cash or credits.": "Contanti o crediti.",
    "10 to 120 seconds.": "Da 10 a 120 secondi.",
    "Yes or no.": "Sì o no.",
    "Automatic, Italian or French.": "Automatiche, italiane o francesi.",
    "The game's options.": "Le opzioni del gioco.",
    "%(n)s players are seated: it cannot be fewer.": "Sono seduti %(n)s giocatori: non possono essere meno.",
    "Not valid for this game: %(reason)s": "Non valida per questo gioco: %(reason)s",
    "At most %(max)s.": "Al massimo %(max)s.",
    "%(n)s credits": "%(n)s crediti",
    "Practice tables have no stake: it must be 0 (make the table official to play for a stake).":
        "I tavoli amichevoli non hanno posta: deve essere 0 (rendi il tavolo ufficiale per giocare con una posta).",
    "The table settings are not valid.": "Le impostazioni del tavolo non sono valide.",
    "The body must be a JSON object.": "Il corpo deve essere un oggetto JSON.",
    "A JSON object.": "Un oggetto JSON.",
    "This table is private: only invited players can sit.":
        "Questo tavolo è privato: possono sedersi solo i giocatori invitati.",
    "You are already seated at this table.": "Sei già seduto a questo tavolo.",
    "No such seat.": "Posto inesistente.",
    "0 to %(last)s.": "Da 0 a %(last)s.",
    "The table is full.": "Il tavolo è al completo.",
    "That seat is taken.": "Quel posto è occupato.",
    "Only the table leader can add robots.": "Solo il capotavola può aggiungere robot.",
    "Robots play only at practice tables: they never play for money or XP.":
        "I robot giocano solo ai tavoli amichevoli: mai per denaro o XP.",
    "Only the table leader can invite.": "Solo il capotavola può invitare.",
    "Whom to invite?": "Chi vuoi invitare?",
    "A nickname.": "Un nickname.",
    "No player has that nickname.": "Nessun giocatore ha quel nickname.",
    "Unknown nickname.": "Nickname sconosciuto.",
    "%(nickname)s invited you to table %(table)s.": "%(nickname)s ti ha invitato al tavolo %(table)s.",
    "You are not seated at this table.": "Non sei seduto a questo tavolo.",
    "Only the table settings can change.": "Si possono cambiare solo le impostazioni del tavolo.",
    "This setting cannot be changed.": "Questa impostazione non si può cambiare.",
    "Only the table leader can change the settings.": "Solo il capotavola può cambiare le impostazioni.",
    "Settings change only before the first match or between matches.":
        "Le impostazioni si cambiano solo prima della prima partita o tra una partita e l'altra.",
    "You were stood up: the new stake needs %(need)s.": "Hai lasciato il posto: la nuova posta richiede %(need)s.",
    "You were stood up: you cannot cover the stake.": "Hai lasciato il posto: non puoi coprire la posta.",
    "Spectators are not allowed at this table.": "A questo tavolo non sono ammessi spettatori.",
    "Joker": "Jolly",
    "Ace": "Asso",
    "italian card\x04Jack": "Fante",
    "italian card\x04Knight": "Cavallo",
    "King": "Re",
    "Jack": "Jack",
    "Queen": "Donna",
    "%(rank)s of %(suit)s": "%(rank)s di %(suit)s",
    "denari": "denari",
    "coppe": "coppe",
    "spade": "spade",
    "bastoni": "bastoni",
    "hearts": "cuori",
    "diamonds": "quadri",
    "clubs": "fiori",
    "spades": "picche",
    "%(n)d card": ("%(n)d carta", "%(n)d carte"),
    "Game": "Gioco",
    "Players": "Giocatori",
    "Seconds per turn": "Secondi per turno",
    "Game options": "Opzioni di gioco",
    "Cards": "Carte",
    "%(nickname)s is invited: they can now sit at this table.":
        "%(nickname)s è invitato: ora può sedersi a questo tavolo.",
    "finished": "finita",
    "cancelled": "annullata",
    "This account is frozen by a sanction: nothing can be spent.":
        "Questo account è congelato da una sanzione: non si può spendere nulla.",
    "Not enough %(currency)s: the balance is %(balance)s, %(needed)s needed.":
        "%(currency)s insufficienti: il saldo è %(balance)s, ne servono %(needed)s.",
    "You have %(balance)s credits: a recharge is possible only below %(below)s.":
        "Hai %(balance)s crediti: la ricarica è possibile solo sotto i %(below)s.",
    "A recharge is already on its way: it arrives at %(at)s (Rome time); ask again after it.":
        "Una ricarica è già in arrivo: arriva alle %(at)s (ora di Roma); chiedine un'altra dopo.",
    "You already asked for %(n)s recharges today: try again tomorrow (%(day)s, Rome time).":
        "Oggi hai già chiesto %(n)s ricariche: riprova domani (%(day)s, ora di Roma).",
    "Menu": "Menu",
    "Rules of %(name)s": "Regole di %(name)s",
    "Play %(name)s": "Gioca a %(name)s",
    "The full rules are written in English, as the platform applies them.":
        "Il regolamento completo è scritto in inglese, così come la piattaforma lo applica.",
    "Rules": "Regole",
    "Card faces": "Carte da gioco",
    "The Italian cards you see at every table. French cards are always the standard faces.":
        "Le carte italiane che vedi a ogni tavolo. Le carte francesi hanno sempre i semi standard.",
    "Save": "Salva",
    "%(n)s credit": ("%(n)s credito", "%(n)s crediti"),
    "Rankings: %(name)s": "Classifica: %(name)s",
    "All time": "Sempre",
    "This month": "Questo mese",
    "Matches": "Partite",
    "Wins": "Vittorie",
    "No official match yet.": "Ancora nessuna partita ufficiale.",
    "Invite a player to this private table": "Invita un giocatore a questo tavolo privato",
    "nickname": "nickname",
    "Invite": "Invita",
    "%(n)s player": ("%(n)s giocatore", "%(n)s giocatori"),
    "official": "ufficiale",
    "practice": "amichevole",
    "stake %(stake)s": "posta %(stake)s",
    "stake %(n)s credit": ("posta %(n)s credito", "posta %(n)s crediti"),
    "no stake": "senza posta",
    "%(s)s s a turn": "%(s)s s per turno",
    "private": "privato",
    "no spectators": "senza spettatori",
    "Table": "Tavolo",
    "Seats": "Posti",
    "Kind": "Tipo",
    "Robot": "Robot",
    "playing": "in gioco",
    "Open": "Apri",
    "No open table: create one.": "Nessun tavolo aperto: creane uno.",
    "Private table": "Tavolo privato",
    "table %(n)s": "tavolo %(n)s",
    "This table is private": "Questo tavolo è privato",
    "Only the players the leader invited can sit or watch here.":
        "Qui possono sedersi o guardare solo i giocatori invitati dal capotavola.",
    "Ask %(leader)s for an invitation: once invited, the table opens for you from the tables list.":
        "Chiedi un invito a %(leader)s: una volta invitato, il tavolo ti si apre dalla lista dei tavoli.",
    "No spectators at this table": "Nessuno spettatore a questo tavolo",
    "The players chose to play without spectators: you can sit when a seat is free.":
        "I giocatori hanno scelto di giocare senza spettatori: puoi sederti quando un posto è libero.",
    "Back to the tables": "Torna ai tavoli",
    "All": "Tutti",
    "Create a table": "Crea un tavolo",
    "fewest the game allows": "il minimo del gioco",
    "the game's own deck": "quelle del gioco",
    "Italian": "italiane",
    "French": "francesi",
    "Official (with a stake and XP)": "Ufficiale (con posta e XP)",
    "euro (cash)": "euro (contanti)",
    "Stake per player": "Posta per giocatore",
    "Euro with a decimal comma (for example 2,50) or whole credits. Practice tables have no stake.":
        "Euro con la virgola decimale (per esempio 2,50) o crediti interi. I tavoli amichevoli non hanno posta.",
    "read the rules": "leggi le regole",
    "No options: the standard rules.": "Nessuna opzione: le regole standard.",
    "Private (by invitation)": "Privato (su invito)",
    "Spectators allowed": "Spettatori ammessi",
    "Create and sit down": "Crea e siediti",
    "No finished match yet.": "Ancora nessuna partita finita.",
})

# issue 12 (h4): the match service's refusals (apps/matches)
IT.update({
    "No such match.": "Partita inesistente.",
    "The log of a match opens when the match is over, for staff too.":
        "Il registro di una partita si apre a partita finita, anche per lo staff.",
    "The log is for staff, and for the match's players once it is over.":
        "Il registro è per lo staff, e per i giocatori della partita quando è finita.",
    "The move needs the integer version of the match it was made on.":
        "La mossa richiede la versione (un intero) della partita su cui è stata fatta.",
    "An integer is required.": "Serve un numero intero.",
    "The seat is the integer number of your own seat.": "Il posto è il numero intero del tuo posto.",
    "This match is over: no more moves.": "Questa partita è finita: niente più mosse.",
    "Only the players seated in this match can move.": "Solo i giocatori seduti in questa partita possono muovere.",
    "You can only move for your own seat.": "Puoi muovere solo per il tuo posto.",
    "You left this match: the robot plays your seat to the end.":
        "Hai lasciato questa partita: il robot gioca il tuo posto fino alla fine.",
    "Another move came first: the match is now at version %(version)s.":
        "Un'altra mossa è arrivata prima: la partita è ora alla versione %(version)s.",
    "It is not your turn.": "Non è il tuo turno.",
    "Say yes or no: 'accept' must be true or false.": "Rispondi sì o no: 'accept' deve essere true o false.",
    "true or false": "true o false",
    "Tournament matches cannot be cancelled by the players.":
        "Le partite di torneo non possono essere annullate dai giocatori.",
    "This match is over.": "Questa partita è finita.",
    "Only the human players seated in this match vote.": "Votano solo i giocatori umani seduti in questa partita.",
    "A match is being played: confirm the next one when it is over.":
        "Una partita è in corso: conferma la prossima quando sarà finita.",
})
# the back office (issue 16, h7)
IT.update({
    "Audit log": "Registro di controllo",
    "audit log entry": "voce del registro di controllo",
    "audit log entries": "voci del registro di controllo",
    "Back office": "Back office",
    "Mazziere · administration": "Mazziere · amministrazione",
    "Mazziere administration": "Amministrazione di Mazziere",
    "Administration and back office": "Amministrazione e back office",
    "ledger": "registro contabile",
    "players": "giocatori",
    "tournament results": "risultati di un torneo",
    "waiting": "in attesa",
    "running": "in corso",
    "ready": "pronta",
    "failed": "non riuscita",
    "kind": "tipo",
    "format": "formato",
    "filters": "filtri",
    "requested by": "richiesta da",
    "status": "stato",
    "rows in all": "righe in tutto",
    "rows written": "righe scritte",
    "file": "file",
    "error": "errore",
    "requested at": "richiesta il",
    "finished at": "terminata il",
    "export": "esportazione",
    "exports": "esportazioni",
    "Dashboard": "Cruscotto",
    "Live tables": "Tavoli in corso",
    "Daily reconciliation": "Quadratura giornaliera",
    "Ledger": "Registro contabile",
    "Exports": "Esportazioni",
    "Tournament fees by day": "Commissioni dei tornei per giorno",
    "Tournament fees by game": "Commissioni dei tornei per gioco",
    "Bank (20% of cash pots) by day": "Banco (20% dei piatti in denaro) per giorno",
    "Bank (cash) by game": "Banco (denaro) per gioco",
    "Bank (20% of credits pots) by day": "Banco (20% dei piatti in crediti) per giorno",
    "Bank (credits) by game": "Banco (crediti) per gioco",
    "Tournament prizes paid by day": "Montepremi dei tornei pagati per giorno",
    "Overlay paid on guarantees by day": "Overlay pagato sui garantiti per giorno",
    "Bonus granted by day": "Bonus concessi per giorno",
    "Cancellation refunds by malfunction rule": "Rimborsi per annullamento, per regola di malfunzionamento",
    "Tournaments finished and cancelled by day": "Tornei conclusi e annullati per giorno",
    "Busiest hour: tables in play and players at play": "Ora di punta: tavoli in gioco e giocatori al tavolo",
    "New players and first stakes by day": "Nuovi giocatori e prime puntate per giorno",
    "cash": "denaro",
    "bonus": "bonus",
    "total": "totale",
    "registrations refunded": "iscrizioni rimborsate",
    "finished": "conclusi",
    "cancelled": "annullati",
    "fill rate %": "riempimento %",
    "tables": "tavoli",
    "new players": "nuovi giocatori",
    "first stakes": "prime puntate",
    "Ledger of %(player)s": "Registro contabile di %(player)s",
    "Export %(id)s": "Esportazione %(id)s",
    "Table %(id)s closed.": "Tavolo %(id)s chiuso.",
    "The player was stood up.": "Il giocatore è stato fatto alzare dal tavolo.",
    "Message sent to table %(id)s.": "Messaggio inviato al tavolo %(id)s.",
    "Chat": "Chat",
    "chat message": "messaggio di chat",
    "chat messages": "messaggi di chat",
    "Common": "Comune",
    "idempotency key": "chiave di idempotenza",
    "idempotency keys": "chiavi di idempotenza",
    "Compliance": "Conformità",
    "sanction": "sanzione",
    "sanctions": "sanzioni",
    "Demo world": "Mondo dimostrativo",
    "Games": "Giochi",
    "role": "ruolo",
    "staff": "staff",
    "active": "attivo",
    "suspended": "sospeso",
    "reported to the authority": "segnalato all'autorità",
    "any active sanction": "con una sanzione attiva",
    "balances": "saldi",
    "has cash": "con denaro",
    "has bonus": "con bonus",
    "has frozen money": "con somme bloccate",
    "no cash nor bonus": "senza denaro né bonus",
    "nickname": "nickname",
    "reported": "segnalato",
    "cash €": "denaro €",
    "bonus €": "bonus €",
    "credits": "crediti",
    "frozen €": "bloccati €",
    "Players": "Giocatori",
    "player profile": "profilo del giocatore",
    "player profiles": "profili dei giocatori",
    "nickname change": "cambio di nickname",
    "nickname changes": "cambi di nickname",
    "XP award": "assegnazione di XP",
    "XP awards": "assegnazioni di XP",
    "Rankings": "Classifiche",
    "Tables and matches": "Tavoli e partite",
    "table": "tavolo",
    "seat": "posto",
    "seats": "posti",
    "table invitation": "invito al tavolo",
    "table invitations": "inviti al tavolo",
    "match": "partita",
    "matches": "partite",
    "match seat": "posto in partita",
    "match seats": "posti in partita",
    "match action": "mossa",
    "match actions": "mosse",
    "cancellation proposal": "proposta di annullamento",
    "cancellation proposals": "proposte di annullamento",
    "table connection": "connessione al tavolo",
    "table connections": "connessioni ai tavoli",
    "owner": "titolare",
    "house": "casa",
    "escrows": "depositi vincolati",
    "reference": "riferimento",
    "Wallet and ledger": "Portafoglio e registro contabile",
    "account": "conto",
    "accounts": "conti",
    "transaction": "transazione",
    "transactions": "transazioni",
    "ledger entry": "movimento",
    "ledger entries": "movimenti",
    "adjustment": "rettifica",
    "adjustments": "rettifiche",
    "credit recharge": "ricarica di crediti",
    "credit recharges": "ricariche di crediti",
    "freeze": "blocco",
    "freezes": "blocchi",
    "%(done)s of %(total)s rows": "%(done)s di %(total)s righe",
    "Download": "Scarica",
    "Failed:": "Non riuscita:",
    "Nothing in this period.": "Niente in questo periodo.",
    "Total": "Totale",
    "Players and balances": "Giocatori e saldi",
    "Reconciliation": "Quadratura",
    "Open tables": "Tavoli aperti",
    "Tables with players connected": "Tavoli con giocatori collegati",
    "Players online": "Giocatori collegati",
    "Matches in play": "Partite in corso",
    "Home": "Home",
    "Period": "Periodo",
    "Today": "Oggi",
    "7 days": "7 giorni",
    "30 days": "30 giorni",
    "from": "dal",
    "to": "al",
    "Show": "Mostra",
    "%(first)s – %(last)s, days in Europe/Rome": "%(first)s – %(last)s, giorni dell'ora di Roma",
    "Online now": "Collegati ora",
    "(refreshed every 10 seconds)": "(aggiornato ogni 10 secondi)",
    "All exports": "Tutte le esportazioni",
    "New export": "Nuova esportazione",
    "A tournament's results can be exported once tournaments exist.":
        "I risultati di un torneo si potranno esportare quando ci saranno i tornei.",
    "Exports of more than 2,000 rows are written in the background: this page shows their progress.":
        "Le esportazioni di più di 2.000 righe vengono scritte in background: questa pagina ne mostra l'avanzamento.",
    "what": "cosa",
    "progress": "avanzamento",
    "No export yet.": "Ancora nessuna esportazione.",
    "Player id": "Id giocatore",
    "Kind": "Tipo",
    "all": "tutti",
    "Filter": "Filtra",
    "Export these entries:": "Esporta questi movimenti:",
    "time (Rome)": "ora (Roma)",
    "currency": "valuta",
    "amount": "importo",
    "balance after": "saldo dopo",
    "No entry matches.": "Nessun movimento corrisponde.",
    "page %(n)s of %(pages)s (%(count)s entries)": "pagina %(n)s di %(pages)s (%(count)s movimenti)",
    "Day": "Giorno",
    "Balances at the end of the day (Europe/Rome), from the ledger's entries.":
        "Saldi a fine giornata (ora di Roma), dai movimenti del registro.",
    "sums to zero": "somma zero",
    "does not sum to zero": "non somma zero",
    "Escrows (matches, tournaments)": "Depositi vincolati (partite, tornei)",
    "Players + house accounts": "Giocatori + conti della casa",
    "Totals by kind on %(day)s": "Totali per tipo del %(day)s",
    "credited": "accreditato",
    "debited": "addebitato",
    "players' side": "lato giocatori",
    "No movement that day.": "Nessun movimento quel giorno.",
    "Amounts in cents for cash and bonus, in credits for credits.":
        "Importi in centesimi per denaro e bonus, in crediti per i crediti.",
    "Every action needs a reason: it is written in the audit log and the players concerned are told.":
        "Ogni azione richiede un motivo: viene scritto nel registro di controllo e comunicato ai giocatori interessati.",
    "Table %(id)s · %(game)s": "Tavolo %(id)s · %(game)s",
    "stake": "posta",
    "official": "ufficiale",
    "practice": "allenamento",
    "private": "privato",
    "match %(m)s in play": "partita %(m)s in corso",
    "between matches": "tra una partita e l'altra",
    "reason": "motivo",
    "Stand up": "Fai alzare",
    "Robot": "Robot",
    "free": "libero",
    "message to the table": "messaggio al tavolo",
    "reason (optional)": "motivo (facoltativo)",
    "Send to the table chat": "Invia nella chat del tavolo",
    "Close the table (the match is cancelled, stakes returned)":
        "Chiudi il tavolo (la partita viene annullata, poste restituite)",
    "Close the table": "Chiudi il tavolo",
    "No table is open.": "Nessun tavolo aperto.",
    "From the operator": "Dalla sala",
})
IT.update({
    "Tournament id": "Id del torneo",
    "A tournament's results come from the ledger: what each player paid, won or got back, and the refund rule.":
        "I risultati di un torneo vengono dal registro contabile: quanto ogni giocatore ha pagato, vinto o avuto "
        "indietro, e la regola del rimborso.",
})
IT.update({
    "Tables": "Tavoli",
    "Matches": "Partite",
    "table match": "partita del tavolo",
    "table matches": "partite dei tavoli",
})
IT.update({"game not known yet": "gioco non ancora noto"})

# the lead's merge (issues 9 and 15)
IT.update({
    "No match is being played here now.": "Qui ora non si gioca nessuna partita.",
})
