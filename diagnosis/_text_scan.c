/* Scans of a call's texts that the detectors ask for on every call, compiled (optional: each has a
 * Python twin that gives the same answers, used when this module is not built).
 *
 * user_turn(prompt)      the user's last turn in a templated prompt, else the prompt itself: the
 *                        answer of diagnosis.text._user_turn (the same marker search, in C).
 * refusal_hints(reply)   for an ASCII reply, bit 1: its opening (240 characters) holds one of the
 *                        words every opening refusal pattern holds; bit 2: its end (the last 400
 *                        characters, from 120 on) holds one of the late patterns' words (only for
 *                        a reply longer than 240); -1 for a reply that is not ASCII. The answer
 *                        of diagnosis.detectors_refusal.refusal_hints_py.
 * suspects(low)          for a lower-cased ASCII text, the set of its long tokens that could hold a
 *                        character loop (diagnosis.loop._suspects, gates included); None if not ASCII.
 * series_items(said)     for an ASCII text, [(label, N)] of each line that opens as an item of a
 *                        numbered series ("Quiz question 3:"), in order: the group(1) and
 *                        int(group(2)) of every match of detectors_continuation._SERIES_ITEM at a
 *                        line start; None if not ASCII.
 *
 * speaker_line(text)     whether some line opens as a speaker's turn ("Alice: ..."), the answer of
 *                        detectors_continuation.speaker_line_py.
 * series_gate(text)      False when no line of any part of ``text`` can open as such an item (a
 *                        necessary condition: see the function).
 *
 * Why compiled: the user's turn, the refusal prefilters, the long-token gate and the series lines
 * were ~8 us of a call's ~38 us in Python (a dozen str methods and a loop each); tests in
 * tests/diagnosis/test_diagnosis_text_scan.py fuzz each against its twin.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ the user's turn */

#define TURNS 7
static const char *turn_start[TURNS] = {
    "<|im_start|>user", "<|start_header_id|>user<|end_header_id|>", "<start_of_turn>user", "<|user|>", "[INST]",
    "### Instruction:", "USER:",
};
static const char *turn_ends[TURNS][3] = {
    {"<|im_end|>", "<|im_start|>", NULL},
    {"<|eot_id|>", "<|start_header_id|>", NULL},
    {"<end_of_turn>", "<start_of_turn>", NULL},
    {"<|end|>", "<|assistant|>", "</s>"},
    {"[/INST]", NULL, NULL},
    {"### Response:", "### Input:", NULL},
    {"ASSISTANT:", NULL, NULL},
};
static PyObject *start_obj[TURNS];
static PyObject *end_obj[TURNS][3];
static Py_UCS4 rare_char[TURNS];  /* 0: none */
static int named[TURNS];           /* the marker contains "user" */
static PyObject *s_user, *s_sys_open, *s_sys_close, *s_strip;

/* str.find (direction 1) / str.rfind (-1) of ``sub`` in text[start:end] (ASCII ``text`` and ``sub``: memmem,
 * without PyUnicode_Find's checks per call); any other text: PyUnicode_Find. -2 on error. */
static Py_ssize_t find(PyObject *text, PyObject *sub, Py_ssize_t start, Py_ssize_t end, int direction) {
    if (!PyUnicode_IS_ASCII(text) || !PyUnicode_IS_ASCII(sub)) return PyUnicode_Find(text, sub, start, end, direction);
    const char *t = (const char *)PyUnicode_1BYTE_DATA(text), *s = (const char *)PyUnicode_1BYTE_DATA(sub);
    Py_ssize_t m = PyUnicode_GET_LENGTH(sub);
    if (end > PyUnicode_GET_LENGTH(text)) end = PyUnicode_GET_LENGTH(text);
    if (start < 0 || m == 0) return PyUnicode_Find(text, sub, start, end, direction);  /* (not asked here) */
    if (end - start < m) return -1;
    Py_ssize_t found = -1;
    const char *at = t + start, *stop = t + end;
    while (at + m <= stop) {
        const char *hit = memmem(at, (size_t)(stop - at), s, (size_t)m);
        if (hit == NULL) break;
        found = hit - t;
        if (direction > 0) break;
        at = hit + 1;
    }
    return found;
}

static PyObject *user_turn(PyObject *self, PyObject *prompt) {
    if (!PyUnicode_Check(prompt)) { PyErr_SetString(PyExc_TypeError, "user_turn: str"); return NULL; }
    Py_ssize_t n = PyUnicode_GET_LENGTH(prompt);
    if (n == 0) return PyUnicode_FromString("");
    Py_ssize_t best = -1, user_after = 0;
    int turn = -1;
    for (int i = 0; i < TURNS; i++) {
        if (rare_char[i]) {
            Py_ssize_t r = PyUnicode_FindChar(prompt, rare_char[i], 0, n, 1);
            if (r == -2) return NULL;
            if (r == -1) continue;
        }
        if (named[i] && user_after == -1) continue;
        Py_ssize_t at = find(prompt, start_obj[i], best + 1, n, -1);
        if (at == -2) return NULL;
        if (at >= 0) {
            best = at;
            turn = i;
            user_after = find(prompt, s_user, at + PyUnicode_GET_LENGTH(start_obj[i]), n, 1);
            if (user_after == -2) return NULL;
        }
    }
    if (turn < 0) { Py_INCREF(prompt); return prompt; }
    Py_ssize_t body_start = best + PyUnicode_GET_LENGTH(start_obj[turn]), body_end = n;
    for (int j = 0; j < 3 && end_obj[turn][j] != NULL; j++) {
        Py_ssize_t e = find(prompt, end_obj[turn][j], body_start, n, 1);
        if (e == -2) return NULL;
        if (e != -1 && e < body_end) body_end = e;
    }
    PyObject *body = PyUnicode_Substring(prompt, body_start, body_end);
    if (body == NULL) return NULL;
    PyObject *text = PyObject_CallMethodNoArgs(body, s_strip);
    Py_DECREF(body);
    if (text == NULL) return NULL;
    Py_ssize_t tn = PyUnicode_GET_LENGTH(text);
    Py_ssize_t opens = PyUnicode_Tailmatch(text, s_sys_open, 0, tn, -1);
    if (opens == -1) { Py_DECREF(text); return NULL; }
    if (opens) {
        Py_ssize_t close = find(text, s_sys_close, 0, tn, 1);
        if (close == -2) { Py_DECREF(text); return NULL; }
        if (close != -1) {
            PyObject *rest = PyUnicode_Substring(text, close + PyUnicode_GET_LENGTH(s_sys_close), tn);
            Py_DECREF(text);
            if (rest == NULL) return NULL;
            text = PyObject_CallMethodNoArgs(rest, s_strip);
            Py_DECREF(rest);
        }
    }
    return text;
}

/* ------------------------------------------------------------------ refusal hints */

#define REFUSAL_HEAD 240
#define LATE_WINDOW 400

static const char *head_hints[] = {"n't", " not ", "cannot", "sorry", "unable", "declin", "refus", "afraid", "as an ai",
                                   "against my", NULL};
static const char *tail_hints[] = {"n't", "cannot", " not ", "sorry", "apolog", "declin", "refus", "unable",
                                   "against my", NULL};

/* Whether one of ``hints`` occurs in the ASCII text[0:n], compared lower-cased (every hint is lower case). */
static int has_hint(const unsigned char *text, Py_ssize_t n, const char **hints) {
    unsigned char low[LATE_WINDOW + 1];
    if (n > LATE_WINDOW) n = LATE_WINDOW;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = text[i];
        low[i] = (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
    }
    for (int h = 0; hints[h] != NULL; h++) {
        const char *hint = hints[h];
        size_t m = strlen(hint);
        if ((Py_ssize_t)m <= n && memmem(low, (size_t)n, hint, m) != NULL) return 1;
    }
    return 0;
}

static PyObject *refusal_hints(PyObject *self, PyObject *reply) {
    if (!PyUnicode_Check(reply)) { PyErr_SetString(PyExc_TypeError, "refusal_hints: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(reply)) return PyLong_FromLong(-1);
    const unsigned char *text = PyUnicode_1BYTE_DATA(reply);
    Py_ssize_t n = PyUnicode_GET_LENGTH(reply);
    long bits = has_hint(text, n < REFUSAL_HEAD ? n : REFUSAL_HEAD, head_hints);
    if (n > REFUSAL_HEAD) {
        Py_ssize_t offset = n - LATE_WINDOW > REFUSAL_HEAD / 2 ? n - LATE_WINDOW : REFUSAL_HEAD / 2;
        if (has_hint(text + offset, n - offset, tail_hints)) bits |= 2;
    }
    return PyLong_FromLong(bits);
}

/* ------------------------------------------------------------------ long tokens (the loop detector) */

#define MIN_LONG_TOKEN 10
#define LONG_UNIT 16
#define PUNCT_RUN 10

static unsigned char split_space[256];  /* what str.split splits on, in ASCII */
static unsigned char looping_punct[256];  /* loop._LOOPING_PUNCT */

static PyObject *suspects(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "suspects: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    /* The gates of _suspects: a token of 10+ characters, and a token of 16+ or a run of 10 looping
     * punctuation characters; then every token of 10+ with at most half as many distinct characters. */
    int any_long = 0, any_unit = 0, punct = 0;
    Py_ssize_t run = 0, prun = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = text[i];
        if (split_space[c]) {
            run = 0;
        } else if (++run >= MIN_LONG_TOKEN) {
            any_long = 1;
            if (run >= LONG_UNIT) any_unit = 1;
        }
        if (looping_punct[c]) {
            if (++prun >= PUNCT_RUN) punct = 1;
        } else {
            prun = 0;
        }
    }
    PyObject *out = PySet_New(NULL);
    if (out == NULL || !any_long || !(any_unit || punct)) return out;
    Py_ssize_t i = 0;
    while (i < n) {
        while (i < n && split_space[text[i]]) i++;
        Py_ssize_t start = i;
        while (i < n && !split_space[text[i]]) i++;
        Py_ssize_t len = i - start;
        if (len < MIN_LONG_TOKEN) continue;
        unsigned char seen[256];
        memset(seen, 0, sizeof seen);
        Py_ssize_t distinct = 0;
        for (Py_ssize_t k = start; k < i; k++) {
            if (!seen[text[k]]) { seen[text[k]] = 1; distinct++; }
        }
        if (distinct * 2 > len) continue;
        PyObject *word = PyUnicode_Substring(arg, start, i);
        if (word == NULL || PySet_Add(out, word) < 0) { Py_XDECREF(word); Py_DECREF(out); return NULL; }
        Py_DECREF(word);
    }
    return out;
}

/* ------------------------------------------------------------------ numbered series (continuation) */

static inline int is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline int is_blank(unsigned char c) { return c == ' ' || c == '\t'; }

/* _SERIES_ITEM = [ \t>*#-]*([A-Za-z][A-Za-z \t]{0,30}?)[ \t]*#?(\d{1,3})[ \t]*[:.)] matched at ``p``:
 * the letter can only be the first character past the prefix; the label's run of [A-Za-z \t] then
 * ends where the "#" or the first digit is, and the lazy label is that run without its trailing
 * blanks (at most 31 characters with the letter); the digits cannot give back (a digit after them
 * fails [ \t]*[:.)] either way). Returns 1 and the label's end and the number, or 0. */
static int series_at(const unsigned char *t, Py_ssize_t n, Py_ssize_t p, Py_ssize_t *letter, Py_ssize_t *label_end,
                     long *number) {
    while (p < n && (is_blank(t[p]) || t[p] == '>' || t[p] == '*' || t[p] == '#' || t[p] == '-')) p++;
    if (p >= n || !is_alpha(t[p])) return 0;
    Py_ssize_t q = p + 1, last = p + 1;  /* last: the end of the run without trailing blanks */
    while (q < n && (is_alpha(t[q]) || is_blank(t[q]))) {
        if (!is_blank(t[q])) last = q + 1;
        q++;
    }
    if (last - (p + 1) > 30) return 0;
    if (q < n && t[q] == '#') q++;
    Py_ssize_t d = q;
    long value = 0;
    while (d < n && is_digit(t[d]) && d - q < 4) { value = value * 10 + (t[d] - '0'); d++; }
    if (d == q || d - q > 3) return 0;
    while (d < n && is_blank(t[d])) d++;
    if (d >= n || !(t[d] == ':' || t[d] == '.' || t[d] == ')')) return 0;
    *letter = p;
    *label_end = last;
    *number = value;
    return 1;
}

static PyObject *series_items(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "series_items: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_NONE;
    const unsigned char *t = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    Py_ssize_t p = 0;
    for (;;) {
        Py_ssize_t letter, end;
        long number;
        if (series_at(t, n, p, &letter, &end, &number)) {
            PyObject *item = Py_BuildValue("(Nl)", PyUnicode_Substring(arg, letter, end), number);
            if (item == NULL || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
            Py_DECREF(item);
        }
        const unsigned char *nl = memchr(t + p, '\n', (size_t)(n - p));
        if (nl == NULL) break;
        p = (nl - t) + 1;
    }
    return out;
}

/* series_gate(text): whether ``text`` could hold a series item anywhere: a letter, blank or "#", then 1-3
 * digits, blanks and one of ":.)" (what every match of _SERIES_ITEM holds); True for text that is not
 * ASCII (\d reads other digits there). The answer of detectors_continuation.series_gate_py. */
static PyObject *series_gate(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "series_gate: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_TRUE;
    const unsigned char *t = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    for (Py_ssize_t i = 1; i < n; i++) {
        if (!is_digit(t[i]) || !(is_alpha(t[i - 1]) || is_blank(t[i - 1]) || t[i - 1] == '#')) continue;
        Py_ssize_t j = i;
        while (j < n && is_digit(t[j])) j++;
        if (j - i <= 3) {
            while (j < n && is_blank(t[j])) j++;
            if (j < n && (t[j] == ':' || t[j] == '.' || t[j] == ')')) Py_RETURN_TRUE;
        }
        i = j - 1;  /* (the loop's i++ moves past the run) */
    }
    Py_RETURN_FALSE;
}

/* speaker_line(text): whether some line of an ASCII text opens as a speaker's turn, i.e. matches
 * detectors_continuation._SPEAKER_LINE ([ \t]*([A-Z][\w.'-]{0,24}(?: [A-Z][\w.'-]{0,24})?)[ \t]*:[ \t]*\S)
 * at its start; True for text that is not ASCII (\w reads other letters there). A name's run of
 * [\w.'-] cannot give back (what follows it would be one of them, neither a space nor a colon), so
 * each line is one look: the name with its second word, else without. */
static inline int is_name_char(unsigned char c) {
    return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '\'' || c == '-';
}

static inline int is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }

/* After the name, at ``q``: [ \t]*:[ \t]*\S */
static int colon_then_text(const unsigned char *t, Py_ssize_t n, Py_ssize_t q) {
    while (q < n && is_blank(t[q])) q++;
    if (q >= n || t[q] != ':') return 0;
    q++;
    while (q < n && is_blank(t[q])) q++;
    return q < n && !split_space[t[q]];
}

/* The end of [A-Z][\w.'-]{0,24} at ``p`` (a maximal run), or -1. */
static Py_ssize_t name_word(const unsigned char *t, Py_ssize_t n, Py_ssize_t p) {
    if (p >= n || !is_upper(t[p])) return -1;
    Py_ssize_t q = p + 1;
    while (q < n && is_name_char(t[q])) q++;
    return q - (p + 1) <= 24 ? q : -1;
}

static PyObject *speaker_line(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "speaker_line: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_TRUE;
    const unsigned char *t = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg), p = 0;
    for (;;) {
        Py_ssize_t q = p;
        while (q < n && is_blank(t[q])) q++;
        Py_ssize_t end = name_word(t, n, q);
        if (end >= 0) {
            if (end < n && t[end] == ' ') {
                Py_ssize_t second = name_word(t, n, end + 1);
                if (second >= 0 && colon_then_text(t, n, second)) Py_RETURN_TRUE;
            }
            if (colon_then_text(t, n, end)) Py_RETURN_TRUE;
        }
        const unsigned char *nl = memchr(t + p, '\n', (size_t)(n - p));
        if (nl == NULL) break;
        p = (nl - t) + 1;
    }
    Py_RETURN_FALSE;
}

/* ------------------------------------------------------------------ module */

static PyMethodDef methods[] = {
    {"user_turn", user_turn, METH_O, "The user's last turn in a templated prompt, else the prompt (text._user_turn)."},
    {"refusal_hints", refusal_hints, METH_O, "Bits: 1 the opening, 2 the end could hold a refusal; -1 not ASCII."},
    {"suspects", suspects, METH_O, "loop._suspects of a lower-cased ASCII text; None if not ASCII."},
    {"speaker_line", speaker_line, METH_O, "Whether some line of a text opens as a speaker's turn (True if not ASCII)."},
    {"series_gate", series_gate, METH_O, "Whether a text could hold an item of a numbered series anywhere."},
    {"series_items", series_items, METH_O, "[(label, N)] of the series items opening lines; None if not ASCII."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_text_scan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__text_scan(void) {
    for (int i = 0; i < TURNS; i++) {
        start_obj[i] = PyUnicode_InternFromString(turn_start[i]);
        if (start_obj[i] == NULL) return NULL;
        rare_char[i] = (turn_start[i][0] == '[' || turn_start[i][0] == '#') ? (Py_UCS4)turn_start[i][0] : 0;
        named[i] = strstr(turn_start[i], "user") != NULL;
        for (int j = 0; j < 3; j++) {
            end_obj[i][j] = turn_ends[i][j] ? PyUnicode_InternFromString(turn_ends[i][j]) : NULL;
            if (turn_ends[i][j] && end_obj[i][j] == NULL) return NULL;
        }
    }
    s_user = PyUnicode_InternFromString("user");
    s_sys_open = PyUnicode_InternFromString("<<SYS>>");
    s_sys_close = PyUnicode_InternFromString("<</SYS>>");
    s_strip = PyUnicode_InternFromString("strip");
    if (!s_user || !s_sys_open || !s_sys_close || !s_strip) return NULL;
    for (int c = 0; c < 256; c++) {
        split_space[c] = c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f);
        looping_punct[c] = c >= 33 && c < 127 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                           && strchr("-=_*#~.+|/\\:<>^", c) == NULL;
    }
    return PyModule_Create(&module);
}
