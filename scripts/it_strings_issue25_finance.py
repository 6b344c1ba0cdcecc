"""Italian for the finance back office and compliance strings of issue 25 (branch h7)."""

IT = {
    "Busiest hour: tables, tournament matches and players at play":
        "Ora di punta: tavoli, partite di torneo e giocatori in gioco",
    "tournament matches": "partite di torneo",
    "Tournament fees": "Commissioni dei tornei",
    "Bank (cash)": "Banco (denaro)",
    "Bank (credits)": "Banco (crediti)",
    "Prizes paid": "Premi pagati",
    "Overlay paid": "Overlay pagato",
    "Bonus granted": "Bonus concessi",
    "Cancellation refunds": "Rimborsi per annullamento",
    "%(n)s registration": ("%(n)s iscrizione", "%(n)s iscrizioni"),
    "Tournaments finished / cancelled": "Tornei conclusi / annullati",
    "fill rate %(p)s%%": "riempimento %(p)s%%",
    "Busiest hour": "Ora di punta",
    "tables %(t)s · tournament matches %(m)s · players %(p)s":
        "tavoli %(t)s · partite di torneo %(m)s · giocatori %(p)s",
    "New players / first stakes": "Nuovi giocatori / prime puntate",
    "Unknown kind of sanction.": "Tipo di sanzione sconosciuto.",
    "The period at a glance": "Il periodo in sintesi",
    "refund split": "rimborso: bonus · denaro",
    "Transactions by kind on %(day)s": "Transazioni per tipo del %(day)s",
    "each transaction balances: credited + debited = 0 on every row":
        "ogni transazione è in pareggio: accrediti + addebiti = 0 su ogni riga",
    "transaction kind": "tipo di transazione",
    "credited + debited": "accrediti + addebiti",
    "Players' entries by kind on %(day)s": "Movimenti dei giocatori per tipo del %(day)s",
    "what each line is to the player; the net adds up to the players' side above":
        "che cosa è ogni riga per il giocatore; il netto torna con il lato giocatori della tabella sopra",
    "entry kind": "tipo di movimento",
    "ledger lines": "righe del registro",
    "net amount": "importo netto",
    "Players' net in %(currency)s (players' side of the transactions: %(players)s)":
        "Netto dei giocatori in %(currency)s (lato giocatori delle transazioni: %(players)s)",
    "actioned: sanction #%(n)s": "provvedimento: sanzione n. %(n)s",
    "reviewed: no action": "esaminato: nessun provvedimento",
    "Actioned by sanction #%(n)s (%(who)s, %(when)s).": "Provvedimento: sanzione n. %(n)s (%(who)s, %(when)s).",
    "Reviewed by %(who)s on %(when)s: no action.": "Esaminato da %(who)s il %(when)s: nessun provvedimento.",
    "Confirm: %(kind)s for %(who)s": "Conferma: %(kind)s per %(who)s",
    "This player already has an active sanction of this kind: it will be refused. Lift it first to change its "
    "duration.": "Questo giocatore ha già una sanzione attiva di questo tipo: sarà rifiutata. Revocala prima per "
                 "cambiarne la durata.",
    "What it will do": "Che cosa farà",
    "The player cannot send chat messages anywhere. Playing is not affected.":
        "Il giocatore non può scrivere in nessuna chat. Il gioco non cambia.",
    "The player is kept out of the lobby: no registering, no tables, no chat, no credit requests; their open pages "
    "are closed.": "Il giocatore resta fuori dalla lobby: niente iscrizioni, tavoli, chat né richieste di crediti; "
                   "le sue pagine aperte vengono chiuse.",
    "%(n)s registration in a tournament not yet started is cancelled and refunded in full (bonus %(bonus)s, cash "
    "%(cash)s):": ("%(n)s iscrizione a un torneo non ancora iniziato viene annullata e rimborsata per intero "
                   "(bonus %(bonus)s, denaro %(cash)s):",
                   "%(n)s iscrizioni a tornei non ancora iniziati vengono annullate e rimborsate per intero "
                   "(bonus %(bonus)s, denaro %(cash)s):"),
    "No registration in a tournament not yet started: nothing to refund.":
        "Nessuna iscrizione a tornei non ancora iniziati: niente da rimborsare.",
    "Disqualified from running tournaments:": "Squalificato dai tornei in corso:",
    "%(n)s table match in play is forfeited.": ("%(n)s partita al tavolo in corso è persa a tavolino.",
                                                "%(n)s partite al tavolo in corso sono perse a tavolino."),
    "%(total)s moves to the authority's frozen account (cash %(cash)s, bonus %(bonus)s): the player's wallet shows "
    "0 until the authority decides; money arriving later goes there too. Credits stay.":
        "%(total)s passano al conto bloccato per l'Autorità (denaro %(cash)s, bonus %(bonus)s): il portafoglio del "
        "giocatore mostra 0 finché l'Autorità non decide; anche il denaro che arriva dopo va lì. I crediti restano.",
    "The refunds above go there too: %(total)s in all.": "Anche i rimborsi qui sopra vanno lì: %(total)s in tutto.",
    "%(total)s is frozen in the wallet (cash %(cash)s, bonus %(bonus)s): nothing can be spent while the suspension "
    "lasts.": "%(total)s restano bloccati nel portafoglio (denaro %(cash)s, bonus %(bonus)s): non si può spendere "
              "nulla finché dura la sospensione.",
    "Issue the %(kind)s": "Emetti: %(kind)s",
    "Cancel: go back": "Annulla: torna indietro",
}
