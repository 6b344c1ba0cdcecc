"""Italian for the table's session notices (issue 27) and the cashier (issue 28)."""

IT = {
    "Your daily time limit ends in %(n)s minute: the match in play finishes, no new match starts.": (
        "Il tuo limite di tempo giornaliero scade tra %(n)s minuto: la partita in corso finisce, non ne inizia una nuova.",
        "Il tuo limite di tempo giornaliero scade tra %(n)s minuti: la partita in corso finisce, non ne inizia una nuova."),
    "Daily time limit: %(n)s minute left. The match in play finishes; no new match starts after it.": (
        "Limite di tempo giornaliero: resta %(n)s minuto. La partita in corso finisce; dopo non ne inizia una nuova.",
        "Limite di tempo giornaliero: restano %(n)s minuti. La partita in corso finisce; dopo non ne inizia una nuova."),
}
