"""Translations the catalogue holds that older it_strings files spell otherwise (loaded last, so they win)."""

IT = {'%(nickname)s is invited: they can now sit at this table.': 'Invito inviato a %(nickname)s: ora può sedersi a '
                                                             'questo tavolo.',
 'An open tournament with an entry cost, paying cash or seats.': 'Un torneo aperto con costo di partecipazione, '
                                                                 'che paga in contanti o in posti.',
 'Ante %(ante)s · bets from %(min)s': 'Invito (ante) %(ante)s a testa · puntate da %(min)s',
 'Bank (20% of cash pots) by day': 'Banco (20% dei piatti in contanti) per giorno',
 'Bank (cash) by game': 'Banco (contanti) per gioco',
 'You sit out: the ante is %(stake)s credits and you have %(credits)s.': "Resti fuori: l'invito (ante) è di "
                                                                         '%(stake)s crediti e ne hai %(credits)s.',
 'You sit out: you cannot cover the ante.': "Resti fuori: non puoi coprire l'invito (ante).",
 'cash': 'contanti',
 'cash €': 'contanti €',
 'has cash': 'con contanti',
 'no cash nor bonus': 'senza contanti né bonus'}
