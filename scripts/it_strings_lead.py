"""Italian for strings the lead added while merging."""

IT = {
    "chat report": "segnalazione in chat",
    "chat reports": "segnalazioni in chat",
    "word list entry": "voce dell'elenco di parole",
    "word list entries": "voci dell'elenco di parole",
}
