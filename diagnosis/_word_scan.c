/* The grouping features' word look-ups and rule tables (diagnosis/features_scan.py), compiled;
 * diagnosis/compiled.py chooses this module or the Python twins, once (both paths give the same
 * answers: tests/diagnosis/test_compiled_scans.py and test_diagnosis_word_scan.py).
 *
 * configure(keywords, prefixes): the words looked up (bytes) and the word-start prefixes (bytes).
 * scan(folded) for a lower-cased ASCII text returns (the keywords that are words of the text, as
 * a frozenset of the very objects given; the prefixes that start a word of the text, likewise),
 * i.e. ``LOOKED_UP_WORDS.intersection(words)`` and ``{p for p in prefixes if some word starts with
 * p}`` where the words are the maximal runs of ``[a-z0-9_]`` (``\w`` in lower-cased ASCII);
 * None for a text that is not ASCII or before ``configure``.
 * first(spec, folded, words, started, default): _Scanner.first of one table (its gates, then its
 * gated patterns) for a lower-cased ASCII text; None if not ASCII.
 *
 * Why compiled (issue 39, tests/bench/bench_scans.py, CPU per distinct bench prompt): the three
 * tables 2.3 us against 9.7 us in Python; the words alone 0.7 us against 2.5 (bytes.translate and
 * a set), 4.7 with pyahocorasick and word-boundary checks, 29 with one re alternation. Every
 * distinct user text of a report goes through it. SOURCE_HASH: the SHA-256 of this file, compiled
 * in by setup.py (a module built from other sources is refused).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef SOURCE_HASH  /* setup.py defines it: the SHA-256 of this file (diagnosis/compiled.py compares it) */
#define SOURCE_HASH ""
#endif

#define TABLE_BITS 10
#define TABLE_SIZE (1 << TABLE_BITS)

static PyObject *keywords[TABLE_SIZE];  /* open addressing, by FNV-1a of the bytes */
static PyObject *prefixes = NULL;       /* a tuple of bytes */
static unsigned char prefix_first[256];
static unsigned char keyword_shape[32][256];  /* some keyword has this length (31: 31 or more) and first byte */
#define MAX_PREFIXES 64
static Py_ssize_t by_first[256][MAX_PREFIXES + 1];  /* the prefixes' indexes by their first byte, -1 ended */
static int configured = 0;

static inline int is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static inline uint64_t fnv(const unsigned char *s, Py_ssize_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t i = 0; i < n; i++) { h ^= s[i]; h *= 1099511628211ULL; }
    return h;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *words, *starts;
    if (!PyArg_ParseTuple(args, "OO!", &words, &PyTuple_Type, &starts)) return NULL;
    for (int i = 0; i < TABLE_SIZE; i++) Py_CLEAR(keywords[i]);
    memset(keyword_shape, 0, sizeof keyword_shape);
    PyObject *it = PyObject_GetIter(words);
    if (it == NULL) return NULL;
    PyObject *word;
    Py_ssize_t count = 0;
    while ((word = PyIter_Next(it)) != NULL) {
        if (!PyBytes_Check(word) || ++count > TABLE_SIZE / 2) {
            Py_DECREF(word); Py_DECREF(it);
            PyErr_SetString(PyExc_ValueError, "keywords: at most 512 bytes objects");
            return NULL;
        }
        uint64_t h = fnv((const unsigned char *)PyBytes_AS_STRING(word), PyBytes_GET_SIZE(word));
        Py_ssize_t s = (Py_ssize_t)(h & (TABLE_SIZE - 1));
        while (keywords[s] != NULL) s = (s + 1) & (TABLE_SIZE - 1);
        keywords[s] = word;  /* the reference from PyIter_Next is kept */
        if (PyBytes_GET_SIZE(word) > 0) {
            Py_ssize_t len = PyBytes_GET_SIZE(word) < 31 ? PyBytes_GET_SIZE(word) : 31;
            keyword_shape[len][(unsigned char)PyBytes_AS_STRING(word)[0]] = 1;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    memset(prefix_first, 0, sizeof prefix_first);
    if (PyTuple_GET_SIZE(starts) > MAX_PREFIXES) {
        PyErr_SetString(PyExc_ValueError, "prefixes: at most 64");
        return NULL;
    }
    for (int c = 0; c < 256; c++) by_first[c][0] = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(starts); i++) {
        PyObject *p = PyTuple_GET_ITEM(starts, i);
        if (!PyBytes_Check(p) || PyBytes_GET_SIZE(p) == 0) {
            PyErr_SetString(PyExc_ValueError, "prefixes: non-empty bytes");
            return NULL;
        }
        unsigned char first = (unsigned char)PyBytes_AS_STRING(p)[0];
        prefix_first[first] = 1;
        Py_ssize_t k = 0;
        while (by_first[first][k] >= 0) k++;
        by_first[first][k] = i;
        by_first[first][k + 1] = -1;
    }
    Py_INCREF(starts);
    Py_XSETREF(prefixes, starts);
    configured = 1;
    Py_RETURN_NONE;
}

static PyObject *scan(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) { PyErr_SetString(PyExc_TypeError, "scan: str"); return NULL; }
    if (!configured || !PyUnicode_IS_ASCII(arg)) Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t size = PyUnicode_GET_LENGTH(arg);
    /* Brand-new frozensets, filled before anyone sees them (PySet_Add allows that): no copy. */
    PyObject *found = PyFrozenSet_New(NULL), *started = PyFrozenSet_New(NULL);
    if (found == NULL || started == NULL) goto fail;
    Py_ssize_t i = 0;
    while (i < size) {
        while (i < size && !is_word(text[i])) i++;
        if (i >= size) break;
        Py_ssize_t start = i;
        while (i < size && is_word(text[i])) i++;
        Py_ssize_t n = i - start;
        const unsigned char *w = text + start;
        Py_ssize_t s = keyword_shape[n < 31 ? n : 31][w[0]] ? (Py_ssize_t)(fnv(w, n) & (TABLE_SIZE - 1)) : -1;
        while (s >= 0 && keywords[s] != NULL) {  /* (s < 0: no keyword has this word's length and first byte) */
            PyObject *k = keywords[s];
            if (PyBytes_GET_SIZE(k) == n && memcmp(PyBytes_AS_STRING(k), w, (size_t)n) == 0) {
                if (PySet_Add(found, k) < 0) goto fail;
                break;
            }
            s = (s + 1) & (TABLE_SIZE - 1);
        }
        if (prefix_first[w[0]]) {
            for (const Py_ssize_t *j = by_first[w[0]]; *j >= 0; j++) {
                PyObject *p = PyTuple_GET_ITEM(prefixes, *j);
                Py_ssize_t m = PyBytes_GET_SIZE(p);
                if (m <= n && memcmp(PyBytes_AS_STRING(p), w, (size_t)m) == 0 && PySet_Add(started, p) < 0) goto fail;
            }
        }
    }
    return Py_BuildValue("(NN)", found, started);
fail:
    Py_XDECREF(found);
    Py_XDECREF(started);
    return NULL;
}

/* ------------------------------------------------------------------ a rule table's first match */

/* The gate kinds of features_scan (_SUBSTRINGS, _WORDS, _ANCHORED, _ONE_DIGIT, _DIGIT_AND, _WORD_START,
 * _ARITH, _ENDS_QUESTION), in its order. */
enum { K_SUBSTRINGS, K_WORDS, K_ANCHORED, K_ONE_DIGIT, K_DIGIT_AND, K_WORD_START, K_ARITH, K_ENDS_QUESTION };

static PyObject *s_search, *s_match;

static inline int is_space(unsigned char c) {  /* str.isspace() in ASCII */
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f);
}

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Whether some word of ``words`` (an iterable of bytes) is in the set ``gate``: -1 on error. */
static int intersects(PyObject *words, PyObject *gate) {
    PyObject *it = PyObject_GetIter(words), *w;
    if (it == NULL) return -1;
    while ((w = PyIter_Next(it)) != NULL) {
        int in = PySet_Contains(gate, w);
        Py_DECREF(w);
        if (in != 0) { Py_DECREF(it); return in; }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* _starts_a_word: one of the str ``prefixes`` occurs where no word character precedes it. */
static int starts_a_word(const unsigned char *t, Py_ssize_t n, PyObject *prefixes) {
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(prefixes); j++) {
        PyObject *p = PyTuple_GET_ITEM(prefixes, j);
        if (!PyUnicode_IS_ASCII(p)) continue;  /* cannot occur in ASCII text */
        const unsigned char *ps = PyUnicode_1BYTE_DATA(p);
        Py_ssize_t m = PyUnicode_GET_LENGTH(p);
        if (m == 0) return 1;
        const unsigned char *at = t, *end = t + n;
        while (at + m <= end && (at = memmem(at, (size_t)(end - at), ps, (size_t)m)) != NULL) {
            if (at == t || !is_word(at[-1])) return 1;
            at++;
        }
    }
    return 0;
}

/* _arith_in: an operator with a digit after it (past whitespace) and one before it (past whitespace;
 * ``bounded``: the run of digits starts the text or follows a character that is not a word character). */
static int arith_in(const unsigned char *t, Py_ssize_t n, PyObject *ops, int bounded) {
    Py_ssize_t count = PyUnicode_GET_LENGTH(ops);
    for (Py_ssize_t j = 0; j < count; j++) {
        Py_UCS4 op = PyUnicode_READ_CHAR(ops, j);
        if (op > 127) continue;  /* cannot occur in ASCII text */
        for (const unsigned char *hit = memchr(t, (int)op, (size_t)n); hit != NULL;
             hit = (hit + 1 < t + n) ? memchr(hit + 1, (int)op, (size_t)(t + n - hit - 1)) : NULL) {
            Py_ssize_t at = hit - t;
            Py_ssize_t right = at + 1;
            while (right < n && is_space(t[right])) right++;
            if (!(right < n && is_digit(t[right]))) continue;
            Py_ssize_t left = at - 1;
            while (left >= 0 && is_space(t[left])) left--;
            if (!(left >= 0 && is_digit(t[left]))) continue;
            if (!bounded) return 1;
            while (left > 0 && is_digit(t[left - 1])) left--;
            if (left == 0 || !is_word(t[left - 1])) return 1;
        }
    }
    return 0;
}

/* ``sub`` in the ASCII text t[0:n] (memmem: no type checks per call); -1 on error. */
static int contains(const unsigned char *t, Py_ssize_t n, PyObject *folded, PyObject *sub) {
    if (!PyUnicode_Check(sub) || !PyUnicode_IS_ASCII(sub)) return PyUnicode_Contains(folded, sub);
    Py_ssize_t m = PyUnicode_GET_LENGTH(sub);
    return m == 0 || (m <= n && memmem(t, (size_t)n, PyUnicode_1BYTE_DATA(sub), (size_t)m) != NULL);
}

/* 1 if ``pattern.<method>(folded)`` matches, 0 if not, -1 on error. */
static int matches(PyObject *pattern, PyObject *method, PyObject *folded) {
    PyObject *m = PyObject_CallMethodOneArg(pattern, method, folded);
    if (m == NULL) return -1;
    int found = m != Py_None;
    Py_DECREF(m);
    return found;
}

/* first(spec, folded, words, started, default): _Scanner.first for a lower-cased ASCII text (None if not
 * ASCII). spec = (names, rank, gated, gated_without_words, gate_words) of the _Scanner. */
static PyObject *first(PyObject *self, PyObject *args) {
    PyObject *spec, *folded, *words, *started, *deflt;
    if (!PyArg_ParseTuple(args, "O!UOOO", &PyTuple_Type, &spec, &folded, &words, &started, &deflt)) return NULL;
    if (!PyUnicode_IS_ASCII(folded)) Py_RETURN_NONE;
    if (PyTuple_GET_SIZE(spec) != 5) { PyErr_SetString(PyExc_ValueError, "first: spec of 5"); return NULL; }
    PyObject *names = PyTuple_GET_ITEM(spec, 0), *rank = PyTuple_GET_ITEM(spec, 1);
    PyObject *gated = PyTuple_GET_ITEM(spec, 2), *without = PyTuple_GET_ITEM(spec, 3);
    PyObject *gate_words = PyTuple_GET_ITEM(spec, 4);
    const unsigned char *t = PyUnicode_1BYTE_DATA(folded);
    Py_ssize_t n = PyUnicode_GET_LENGTH(folded);
    Py_ssize_t count = PyTuple_GET_SIZE(names), best = count;
    int disjoint = 1;
    PyObject *it = PyObject_GetIter(words), *w;
    if (it == NULL) return NULL;
    while ((w = PyIter_Next(it)) != NULL) {
        PyObject *r = PyDict_GetItemWithError(rank, w);
        if (r != NULL) {
            Py_ssize_t v = PyLong_AsSsize_t(r);
            if (v < best) best = v;
        }
        if (disjoint) {
            int in = PySet_Contains(gate_words, w);
            if (in < 0) { Py_DECREF(w); Py_DECREF(it); return NULL; }
            disjoint = !in;
        }
        Py_DECREF(w);
        if (PyErr_Occurred()) { Py_DECREF(it); return NULL; }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    PyObject *list = disjoint ? without : gated;
    int has_digit = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(list); i++) {
        PyObject *item = PyTuple_GET_ITEM(list, i);
        Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 0));
        if (index >= best) break;
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        PyObject *gate = PyTuple_GET_ITEM(item, 2), *pattern = PyTuple_GET_ITEM(item, 3);
        int passed = 0, found = 0;
        switch (kind) {
        case K_SUBSTRINGS:
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(gate) && !passed; j++) {
                passed = contains(t, n, folded, PyTuple_GET_ITEM(gate, j));
                if (passed < 0) return NULL;
            }
            break;
        case K_WORD_START:
            if (started != Py_None) found = intersects(started, gate);
            else found = starts_a_word(t, n, pattern);
            if (found < 0) return NULL;
            if (found) goto hit;
            continue;
        case K_ARITH:
            if (arith_in(t, n, PyTuple_GET_ITEM(gate, 0), PyObject_IsTrue(PyTuple_GET_ITEM(gate, 1)))) goto hit;
            continue;
        case K_ENDS_QUESTION: {
            Py_ssize_t e = n;
            while (e > 0 && is_space(t[e - 1])) e--;
            if (e > 0 && t[e - 1] == '?') goto hit;
            continue;
        }
        case K_WORDS:
            passed = intersects(words, gate);
            if (passed < 0) return NULL;
            break;
        case K_ANCHORED:
            found = matches(pattern, s_match, folded);
            if (found < 0) return NULL;
            if (found) goto hit;
            continue;
        default:  /* K_ONE_DIGIT, K_DIGIT_AND: a digit, and (K_DIGIT_AND) one of the gate's characters */
            passed = 1;
            if (kind == K_DIGIT_AND) {
                passed = 0;
                for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(gate) && !passed; j++) {
                    passed = contains(t, n, folded, PyTuple_GET_ITEM(gate, j));
                    if (passed < 0) return NULL;
                }
            }
            if (passed) {
                if (has_digit < 0) {
                    has_digit = 0;
                    for (Py_ssize_t k = 0; k < n && !has_digit; k++) has_digit = is_digit(t[k]);
                }
                passed = has_digit;
            }
        }
        if (passed) {
            found = matches(pattern, s_search, folded);
            if (found < 0) return NULL;
            if (found) goto hit;
        }
        continue;
    hit:
        best = index;
        break;
    }
    PyObject *out = best < count ? PyTuple_GET_ITEM(names, best) : deflt;
    Py_INCREF(out);
    return out;
}

static PyMethodDef methods[] = {
    {"first", first, METH_VARARGS, "_Scanner.first of a lower-cased ASCII text (features_scan); None if not ASCII."},
    {"configure", configure, METH_VARARGS, "configure(keywords, prefixes): what scan looks for (bytes)."},
    {"scan", scan, METH_O, "(keywords that are words, prefixes that start a word) of a lower-cased ASCII text; None if not ASCII."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_word_scan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__word_scan(void) {
    s_search = PyUnicode_InternFromString("search");
    s_match = PyUnicode_InternFromString("match");
    if (s_search == NULL || s_match == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_HASH", SOURCE_HASH) < 0) Py_CLEAR(m);
    return m;
}
