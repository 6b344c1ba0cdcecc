"""Italian for the back office's strings added on branch h7 (issue 16)."""

IT = {
    "(live: it changes as players come and go)": "(in diretta: cambia quando i giocatori entrano ed escono)",
}
