/* The grouping features' word look-ups (diagnosis/features_scan.py), compiled (optional: the
 * Python twin gives the same answers).
 *
 * configure(keywords, prefixes): the words looked up (bytes) and the word-start prefixes (bytes).
 * scan(folded) for a lower-cased ASCII text returns (the keywords that are words of the text, as
 * a frozenset of the very objects given; the prefixes that start a word of the text, likewise),
 * i.e. ``LOOKED_UP_WORDS.intersection(words)`` and ``{p for p in prefixes if some word starts with
 * p}`` where the words are the maximal runs of ``[a-z0-9_]`` (``\w`` in lower-cased ASCII);
 * None for a text that is not ASCII or before ``configure``. Why compiled: splitting every
 * prompt into word objects to look up a hundred keywords, and a ``str.find`` loop per prefix,
 * were ~4 us of a call's ~40 us.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define TABLE_BITS 10
#define TABLE_SIZE (1 << TABLE_BITS)

static PyObject *keywords[TABLE_SIZE];  /* open addressing, by FNV-1a of the bytes */
static PyObject *prefixes = NULL;       /* a tuple of bytes */
static unsigned char prefix_first[256];
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
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    memset(prefix_first, 0, sizeof prefix_first);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(starts); i++) {
        PyObject *p = PyTuple_GET_ITEM(starts, i);
        if (!PyBytes_Check(p) || PyBytes_GET_SIZE(p) == 0) {
            PyErr_SetString(PyExc_ValueError, "prefixes: non-empty bytes");
            return NULL;
        }
        prefix_first[(unsigned char)PyBytes_AS_STRING(p)[0]] = 1;
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
    PyObject *found = PySet_New(NULL), *started = PySet_New(NULL);
    if (found == NULL || started == NULL) goto fail;
    Py_ssize_t i = 0;
    while (i < size) {
        while (i < size && !is_word(text[i])) i++;
        if (i >= size) break;
        Py_ssize_t start = i;
        while (i < size && is_word(text[i])) i++;
        Py_ssize_t n = i - start;
        const unsigned char *w = text + start;
        uint64_t h = fnv(w, n);
        Py_ssize_t s = (Py_ssize_t)(h & (TABLE_SIZE - 1));
        while (keywords[s] != NULL) {
            PyObject *k = keywords[s];
            if (PyBytes_GET_SIZE(k) == n && memcmp(PyBytes_AS_STRING(k), w, (size_t)n) == 0) {
                if (PySet_Add(found, k) < 0) goto fail;
                break;
            }
            s = (s + 1) & (TABLE_SIZE - 1);
        }
        if (prefix_first[w[0]]) {
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(prefixes); j++) {
                PyObject *p = PyTuple_GET_ITEM(prefixes, j);
                Py_ssize_t m = PyBytes_GET_SIZE(p);
                if (m <= n && memcmp(PyBytes_AS_STRING(p), w, (size_t)m) == 0 && PySet_Add(started, p) < 0) goto fail;
            }
        }
    }
    PyObject *out = Py_BuildValue("(NN)", PyFrozenSet_New(found), PyFrozenSet_New(started));
    Py_DECREF(found);
    Py_DECREF(started);
    return out;
fail:
    Py_XDECREF(found);
    Py_XDECREF(started);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(keywords, prefixes): what scan looks for (bytes)."},
    {"scan", scan, METH_O, "(keywords that are words, prefixes that start a word) of a lower-cased ASCII text; None if not ASCII."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_word_scan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__word_scan(void) { return PyModule_Create(&module); }
