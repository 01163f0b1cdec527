/* The loop detector's gate over every reply, and its word helpers for the replies that pass it,
 * compiled; diagnosis/compiled.py chooses this module or the Python twins, once (both paths give
 * the same answers: tests/diagnosis/test_compiled_scans.py and test_diagnosis_loop_gate.py).
 *
 * prefilter(text)                 loop.prefilter for an ASCII text (None otherwise): the number of
 *                                 words, whether a word trigram comes back at least twice (list
 *                                 markers folded when listed), listed, the long-token suspects,
 *                                 spaced; without lower-casing into a new string or making a word.
 * candidate_periods(toks, max)    loop_words.candidate_periods.
 * strip_tokens(words, punct)      loop_words.stripped_py.
 * token_spans(text)               loop_words.token_spans_py for an ASCII text (None otherwise).
 * labelled_numbers(low)           loop_words.labelled_numbers_py for an ASCII text (None otherwise).
 *
 * The words are the runs between str.split()'s ASCII whitespace (\t\n\v\f\r, \x1c-\x1f and space);
 * trigrams are compared word by word (a hash only finds candidates).
 *
 * Why compiled (issue 39, tests/bench/bench_scans.py, CPU per call on the bench's distinct calls):
 * find_loop over every reply 2.8 us against 13.5 us in Python (the gate alone 1.6 against 10: a
 * word object per word and a tuple per trigram); for the 2.5% of replies that pass it, periods
 * 1.8 against 25 us, token spans 5.6 against 15, counters 0.5 against 15, stripping 0.8 against
 * 5. No library does a word-trigram repetition gate; the twins' re.finditer is the library way
 * for the spans and counters. The per-call loop of the report is ~1.4x slower without this module.
 * SOURCE_HASH: the SHA-256 of this file, compiled in by setup.py (a module built from other
 * sources is refused).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef SOURCE_HASH  /* setup.py defines it: the SHA-256 of this file (diagnosis/compiled.py compares it) */
#define SOURCE_HASH ""
#endif

static inline int is_space(unsigned char c) {
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f);
}

static inline int is_marker(const unsigned char *s, Py_ssize_t n) {
    /* \(?\d{1,3}[.)] as the whole token */
    Py_ssize_t i = 0;
    if (n > 0 && s[0] == '(') i = 1;
    Py_ssize_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
    return digits >= 1 && digits <= 3 && i == n - 1 && (s[i] == '.' || s[i] == ')');
}

typedef struct { Py_ssize_t start; Py_ssize_t len; uint64_t hash; } Token;  /* len -1: a folded marker */

static inline int same_token(const unsigned char *text, const Token *a, const Token *b) {
    if (a->len != b->len || a->hash != b->hash) return 0;
    if (a->len < 0) return 1;
    return memcmp(text + a->start, text + b->start, (size_t)a->len) == 0;
}

/* len(words) * 2 + could-repeat of the lower-cased ASCII text[0:size]; -1 when out of memory. */
static Py_ssize_t gate_of(const unsigned char *text, Py_ssize_t size, int fold) {
    Py_ssize_t cap = size / 2 + 2;  /* at most this many words */
    Token *tokens = PyMem_Malloc(sizeof(Token) * (size_t)cap);
    if (tokens == NULL) return -1;
    Py_ssize_t n = 0, i = 0;
    while (i < size) {
        while (i < size && is_space(text[i])) i++;
        if (i >= size) break;
        Py_ssize_t start = i;
        while (i < size && !is_space(text[i])) i++;
        Token *t = &tokens[n++];
        t->start = start;
        t->len = i - start;
        if (fold && t->len <= 5 && is_marker(text + start, t->len)) {
            t->len = -1;
            t->hash = 0x9e3779b97f4a7c15ULL;
        } else {
            uint64_t h = 1469598103934665603ULL;  /* FNV-1a */
            for (Py_ssize_t k = start; k < i; k++) { h ^= text[k]; h *= 1099511628211ULL; }
            t->hash = h ^ (uint64_t)t->len;
        }
    }
    int could = 0;
    if (n >= 3) {
        Py_ssize_t trigrams = n - 2, slots = 8;
        while (slots < trigrams * 2) slots <<= 1;
        Py_ssize_t *table = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)slots);
        if (table == NULL) { PyMem_Free(tokens); return -1; }
        for (Py_ssize_t s = 0; s < slots; s++) table[s] = -1;
        Py_ssize_t repeats = 0;
        for (Py_ssize_t k = 0; k < trigrams && repeats < 2; k++) {
            uint64_t h = tokens[k].hash * 0xff51afd7ed558ccdULL;
            h = (h ^ (h >> 29) ^ tokens[k + 1].hash) * 0xc4ceb9fe1a85ec53ULL;
            h = (h ^ (h >> 31) ^ tokens[k + 2].hash) * 0xff51afd7ed558ccdULL;
            h ^= h >> 33;
            Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(slots - 1));
            for (;;) {
                Py_ssize_t j = table[s];
                if (j < 0) { table[s] = k; break; }
                if (same_token(text, &tokens[j], &tokens[k]) && same_token(text, &tokens[j + 1], &tokens[k + 1])
                    && same_token(text, &tokens[j + 2], &tokens[k + 2])) { repeats++; break; }
                s = (s + 1) & (slots - 1);
            }
        }
        could = repeats >= 2;
        PyMem_Free(table);
    }
    PyMem_Free(tokens);
    return n * 2 + could;
}

/* prefilter(text): for an ASCII text, what find_loop reads before it looks for a loop, in one call and
 * without lower-casing the text into a new string: (number of words, could-repeat (the trigram gate, list
 * markers folded when ``listed``), listed ("2." or "2)" and a \d[.)]\s marker in the text), the long-token
 * suspects (loop._suspects), spaced (5 newlines, 10 spaces or 5 tabs in a row)); None if not ASCII. */
#define MIN_LONG_TOKEN 10
#define LONG_UNIT 16
#define PUNCT_RUN 10
static unsigned char looping_punct[256];

static PyObject *suspects_of(const unsigned char *low, Py_ssize_t n) {
    int any_long = 0, any_unit = 0, punct = 0;
    Py_ssize_t run = 0, prun = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = low[i];
        if (is_space(c)) run = 0;
        else if (++run >= MIN_LONG_TOKEN) { any_long = 1; if (run >= LONG_UNIT) any_unit = 1; }
        if (looping_punct[c]) { if (++prun >= PUNCT_RUN) punct = 1; }
        else prun = 0;
    }
    PyObject *out = PySet_New(NULL);
    if (out == NULL || !any_long || !(any_unit || punct)) return out;
    Py_ssize_t i = 0;
    while (i < n) {
        while (i < n && is_space(low[i])) i++;
        Py_ssize_t start = i;
        while (i < n && !is_space(low[i])) i++;
        Py_ssize_t len = i - start;
        if (len < MIN_LONG_TOKEN) continue;
        unsigned char seen[256];
        memset(seen, 0, sizeof seen);
        Py_ssize_t distinct = 0;
        for (Py_ssize_t k = start; k < i; k++) if (!seen[low[k]]) { seen[low[k]] = 1; distinct++; }
        if (distinct * 2 > len) continue;
        PyObject *word = PyUnicode_FromStringAndSize((const char *)low + start, len);
        if (word == NULL || PySet_Add(out, word) < 0) { Py_XDECREF(word); Py_DECREF(out); return NULL; }
        Py_DECREF(word);
    }
    return out;
}

static PyObject *prefilter(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "prefilter: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    unsigned char stack[2048] = {0};
    unsigned char *low = n <= (Py_ssize_t)sizeof stack ? stack : PyMem_Malloc((size_t)n);
    if (low == NULL) return PyErr_NoMemory();
    int two = 0, marker = 0, spaced = 0;
    Py_ssize_t nl = 0, sp = 0, tab = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = text[i];
        low[i] = (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
        if (c == '2' && i + 1 < n && (text[i + 1] == '.' || text[i + 1] == ')')) two = 1;
        if (c >= '0' && c <= '9' && i + 2 < n && (text[i + 1] == '.' || text[i + 1] == ')') && is_space(text[i + 2]))
            marker = 1;
        nl = c == '\n' ? nl + 1 : 0;
        sp = c == ' ' ? sp + 1 : 0;
        tab = c == '\t' ? tab + 1 : 0;
        if (nl >= 5 || sp >= 10 || tab >= 5) spaced = 1;
    }
    int listed = two && marker;
    Py_ssize_t shape = gate_of(low, n, listed);
    PyObject *suspects = shape < 0 ? NULL : suspects_of(low, n);
    if (low != stack) PyMem_Free(low);
    if (shape < 0) return PyErr_NoMemory();
    if (suspects == NULL) return NULL;
    return Py_BuildValue("(nNNNN)", shape >> 1, PyBool_FromLong(shape & 1), PyBool_FromLong(listed), suspects,
                         PyBool_FromLong(spaced));
}

/* candidate_periods(toks, max_period): loop._candidate_periods (the distances at which some token came
 * back at least twice, counting each token's last two earlier places; the 24 strongest, shortest first).
 * Tokens are compared by value (hash first). */
typedef struct { PyObject *tok; Py_hash_t hash; Py_ssize_t last, before; } Seen;

static Py_ssize_t *sort_counts;  /* (qsort has no context argument: set just before the sort, under the GIL) */

static int by_strength(const void *a, const void *b) {
    Py_ssize_t ga = *(const Py_ssize_t *)a, gb = *(const Py_ssize_t *)b;
    if (sort_counts[ga] != sort_counts[gb]) return sort_counts[ga] > sort_counts[gb] ? -1 : 1;
    return ga < gb ? -1 : ga > gb;
}

static int by_gap(const void *a, const void *b) {
    Py_ssize_t ga = *(const Py_ssize_t *)a, gb = *(const Py_ssize_t *)b;
    return ga < gb ? -1 : ga > gb;
}

static PyObject *candidate_periods(PyObject *self, PyObject *args) {
    PyObject *toks;
    Py_ssize_t max_period;
    if (!PyArg_ParseTuple(args, "O!n", &PyList_Type, &toks, &max_period)) return NULL;
    if (max_period < 1) max_period = 1;
    Py_ssize_t n = PyList_GET_SIZE(toks), slots = 8;
    while (slots < n * 2) slots <<= 1;
    Seen *table = PyMem_Calloc((size_t)slots, sizeof(Seen));
    Py_ssize_t *counts = PyMem_Calloc((size_t)max_period + 1, sizeof(Py_ssize_t));
    if (table == NULL || counts == NULL) { PyMem_Free(table); PyMem_Free(counts); return PyErr_NoMemory(); }
    PyObject *out = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tok = PyList_GET_ITEM(toks, i);
        Py_hash_t h = PyObject_Hash(tok);
        if (h == -1) goto done;
        Py_ssize_t s = (Py_ssize_t)((size_t)h & (size_t)(slots - 1));
        for (;;) {
            Seen *e = &table[s];
            if (e->tok == NULL) { e->tok = tok; e->hash = h; e->last = i; e->before = -1; break; }
            if (e->hash == h) {
                int eq = PyObject_RichCompareBool(e->tok, tok, Py_EQ);
                if (eq < 0) goto done;
                if (eq) {
                    Py_ssize_t prev[2] = {e->last, e->before};
                    for (int k = 0; k < 2; k++) {
                        if (prev[k] >= 0 && i - prev[k] <= max_period) counts[i - prev[k]]++;
                    }
                    e->before = e->last;
                    e->last = i;
                    break;
                }
            }
            s = (s + 1) & (slots - 1);
        }
    }
    {
        Py_ssize_t *gaps = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(max_period + 1)), m = 0;
        if (gaps == NULL) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t g = 1; g <= max_period; g++) if (counts[g] >= 2) gaps[m++] = g;
        sort_counts = counts;
        qsort(gaps, (size_t)m, sizeof(Py_ssize_t), by_strength);
        if (m > 24) m = 24;
        qsort(gaps, (size_t)m, sizeof(Py_ssize_t), by_gap);
        out = PyList_New(m);
        for (Py_ssize_t k = 0; out != NULL && k < m; k++) {
            PyObject *v = PyLong_FromSsize_t(gaps[k]);
            if (v == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, k, v);
        }
        PyMem_Free(gaps);
    }
done:
    PyMem_Free(table);
    PyMem_Free(counts);
    return out;
}

/* strip_tokens(words, punct): [w.strip(punct) or w for w in words] (an ASCII word is stripped here, any
 * other by str.strip). */
static PyObject *s_strip;

static PyObject *strip_tokens(PyObject *self, PyObject *args) {
    PyObject *words, *punct;
    if (!PyArg_ParseTuple(args, "O!U", &PyList_Type, &words, &punct)) return NULL;
    unsigned char strip_set[128] = {0};
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(punct); k++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(punct, k);
        if (c < 128) strip_set[c] = 1;
    }
    Py_ssize_t n = PyList_GET_SIZE(words);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = PyList_GET_ITEM(words, i), *t;
        if (!PyUnicode_Check(w)) { Py_DECREF(out); PyErr_SetString(PyExc_TypeError, "strip_tokens: str"); return NULL; }
        if (PyUnicode_IS_ASCII(w)) {
            const unsigned char *d = PyUnicode_1BYTE_DATA(w);
            Py_ssize_t a = 0, b = PyUnicode_GET_LENGTH(w);
            while (a < b && strip_set[d[a]]) a++;
            while (b > a && strip_set[d[b - 1]]) b--;
            if (a == b || (a == 0 && b == PyUnicode_GET_LENGTH(w))) { Py_INCREF(w); t = w; }
            else t = PyUnicode_Substring(w, a, b);
        } else {
            t = PyObject_CallMethodOneArg(w, s_strip, punct);
            if (t != NULL && PyUnicode_GET_LENGTH(t) == 0) { Py_DECREF(t); Py_INCREF(w); t = w; }
        }
        if (t == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* token_spans(text): [m.span() for m in re.finditer(r"\S+", text)] for an ASCII text; None otherwise. */
static PyObject *token_spans(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "token_spans: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_NONE;
    const unsigned char *t = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg), i = 0;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    while (i < n) {
        while (i < n && is_space(t[i])) i++;
        if (i >= n) break;
        Py_ssize_t start = i;
        while (i < n && !is_space(t[i])) i++;
        PyObject *span = Py_BuildValue("(nn)", start, i);
        if (span == NULL || PyList_Append(out, span) < 0) { Py_XDECREF(span); Py_DECREF(out); return NULL; }
        Py_DECREF(span);
    }
    return out;
}

/* labelled_numbers(low): [(m.group(1), int(m.group(2)), m.start(2)) for m in
 * re.finditer(r"\b([a-z]+)[ \t]+#?(\d{1,3})\b", low)] for an ASCII text; None otherwise. A match starts
 * at a run of letters with no word character before it, the whole run (what follows a shorter part is
 * a letter, not a blank), and its digits are the whole run of 1-3 digits with no word character after. */
static inline int is_word_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static PyObject *labelled_numbers(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "labelled_numbers: str"); return NULL; }
    if (!PyUnicode_IS_ASCII(arg)) Py_RETURN_NONE;
    const unsigned char *t = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg), i = 0;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    while (i < n) {
        if (!(t[i] >= 'a' && t[i] <= 'z') || (i > 0 && is_word_char(t[i - 1]))) { i++; continue; }
        Py_ssize_t start = i;
        while (i < n && t[i] >= 'a' && t[i] <= 'z') i++;
        Py_ssize_t word_end = i, q = i;
        if (!(q < n && (t[q] == ' ' || t[q] == '\t'))) continue;
        while (q < n && (t[q] == ' ' || t[q] == '\t')) q++;
        if (q < n && t[q] == '#') q++;
        Py_ssize_t d = q;
        long value = 0;
        while (d < n && t[d] >= '0' && t[d] <= '9' && d - q < 4) { value = value * 10 + (t[d] - '0'); d++; }
        if (d == q || d - q > 3 || (d < n && is_word_char(t[d]))) continue;
        PyObject *item = Py_BuildValue("(Nln)", PyUnicode_Substring(arg, start, word_end), value, q);
        if (item == NULL || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
        Py_DECREF(item);
        i = d;
    }
    return out;
}

static PyMethodDef methods[] = {
    {"labelled_numbers", labelled_numbers, METH_O, "(word, N, where N starts) of each 'word N' in an ASCII text."},
    {"prefilter", prefilter, METH_O, "(words, could repeat, listed, suspects, spaced) of an ASCII text; None otherwise."},
    {"strip_tokens", strip_tokens, METH_VARARGS, "[w.strip(punct) or w for w in words]."},
    {"token_spans", token_spans, METH_O, "The spans of the runs of non-whitespace of an ASCII text; None otherwise."},
    {"candidate_periods", candidate_periods, METH_VARARGS, "loop._candidate_periods(toks) with the longest period given."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_loop_gate", NULL, -1, methods};

PyMODINIT_FUNC PyInit__loop_gate(void) {
    for (int c = 0; c < 256; c++)
        looping_punct[c] = c >= 33 && c < 127 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                           && strchr("-=_*#~.+|/\\:<>^", c) == NULL;
    s_strip = PyUnicode_InternFromString("strip");
    if (s_strip == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_HASH", SOURCE_HASH) < 0) Py_CLEAR(m);
    return m;
}
