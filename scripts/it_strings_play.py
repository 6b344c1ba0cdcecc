"""Italian for the play floor (issue 29): the match socket's words that no owner overrides."""

IT = {
    "There is no chat here.": "Qui non c'è una chat.",
}
