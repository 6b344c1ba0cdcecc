"""Italian for the play floor (issue 29) and the ops app (issue 30)."""

IT = {
    "There is no chat here.": "Qui non c'è una chat.",
    "Operations": "Operazioni",
}
