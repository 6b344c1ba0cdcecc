"""Italian of the bad-input refusals (platform.md §12) as pages and sockets show them; the API keeps the English."""

IT = {
    "Contains a NUL character, which is not allowed.": "Contiene un carattere NUL, che non è ammesso.",
    "Contains an unpaired surrogate, which is not valid text.":
        "Contiene un surrogato spaiato, che non è testo valido.",
    "JSON nested deeper than %(limit)s levels is not accepted.":
        "Non si accetta JSON annidato per più di %(limit)s livelli.",
    "The number is out of range.": "Il numero è fuori intervallo.",
    "%(name)s is not a JSON number.": "%(name)s non è un numero JSON.",
    "The JSON is nested too deeply.": "Il JSON è annidato troppo in profondità.",
    "Malformed JSON: %(reason)s": "JSON non valido: %(reason)s",
    "The JSON is not well formed.": "Il JSON non è scritto correttamente.",
    "The request body is too large.": "Il corpo della richiesta è troppo grande.",
    "The body is not valid UTF-8.": "Il corpo della richiesta non è testo UTF-8 valido.",
    "the page address": "l'indirizzo della pagina",
    "the request body": "il corpo della richiesta",
    "a parameter name": "il nome di un parametro",
    "a header name": "il nome di un'intestazione",
    "the header %(name)s": "l'intestazione %(name)s",
    "the parameter %(name)s": "il parametro %(name)s",
    "The request was not accepted: %(field)s holds a character that is not allowed (such as a NUL byte) or a "
    "value out of range. Nothing was changed.":
        "La richiesta non è stata accettata: %(field)s contiene un carattere non ammesso (come un byte NUL) o un "
        "valore fuori intervallo. Non è stato modificato nulla.",
}
