"""Italian for the compliance strings added by issue 11 (tournament signals, sanctions)."""

IT = {
    "One address, several players in the same tournament": "Un indirizzo, più giocatori nello stesso torneo",
    "The address each player registered from. Met: matches of the tournament in which two of them faced "
    "each other.": "L'indirizzo da cui ciascun giocatore si è iscritto. Incontri: partite del torneo in cui due di "
                   "loro si sono affrontati.",
    "Tournament": "Torneo",
    "Met": "Incontri",
    "not drawn yet": "non ancora sorteggiate",
}
