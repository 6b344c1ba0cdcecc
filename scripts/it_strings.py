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
