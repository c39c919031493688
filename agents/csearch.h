/* The shared helpers of the games' compiled search cores (agents/<game>/_csearch.c).
 *
 * A compiled search core plays determinized worlds out (the greedy perfect-information policy
 * of agents/<game>/rollout.py, then the exact endgame solver) with the same results as the
 * Python code, its reference (tests/<game>/test_compiled_search.py holds them equal). Helpers
 * here know no game: they read the fields of a world tuple (Python ints) with every bounds and
 * type problem raised as a Python error naming the field, and read the tables the Python side
 * tabulates once (bytes of native doubles).
 */
#ifndef MAZZO_CSEARCH_H
#define MAZZO_CSEARCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* An int in lo..hi, named field in the error. -1 and an exception on failure. */
static inline int cs_int(PyObject *o, long lo, long hi, long *out, const char *game,
                         const char *field) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s search: world field '%s' must be an int, got %.80s",
                     game, field, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s search: world field '%s' must be in %ld..%ld, got %R",
                     game, field, lo, hi, o);
        return -1;
    }
    *out = (long)v;
    return 0;
}

/* A non-negative int bitmask of at most nbits bits (nbits <= 128) as two 64-bit words. */
static inline int cs_mask(PyObject *o, int nbits, uint64_t *lo, uint64_t *hi, const char *game,
                          const char *field) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s search: world field '%s' must be an int bitmask, got %.80s", game,
                     field, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (_PyLong_Sign(o) < 0 || _PyLong_NumBits(o) > (size_t)nbits) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: world field '%s' must be a bitmask of cards 0..%d, got %R",
                     game, field, nbits - 1, o);
        return -1;
    }
    *lo = (uint64_t)PyLong_AsUnsignedLongLongMask(o);
    *hi = 0;
    if (nbits > 64 && _PyLong_NumBits(o) > 64) {
        PyObject *shift = PyLong_FromLong(64);
        if (!shift) return -1;
        PyObject *top = PyNumber_Rshift(o, shift);
        Py_DECREF(shift);
        if (!top) return -1;
        *hi = (uint64_t)PyLong_AsUnsignedLongLongMask(top);
        Py_DECREF(top);
    }
    if (PyErr_Occurred()) return -1;
    return 0;
}

/* A tuple of n items (n < 0: any length, at most -n - 1 items); its items stay borrowed. */
static inline PyObject *cs_tuple(PyObject *o, Py_ssize_t n, const char *game, const char *field) {
    if (!PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s search: world field '%s' must be a tuple, got %.80s",
                     game, field, Py_TYPE(o)->tp_name);
        return NULL;
    }
    Py_ssize_t len = PyTuple_GET_SIZE(o);
    if ((n >= 0 && len != n) || (n < 0 && len > -n - 1)) {
        if (n >= 0)
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field '%s' must hold %zd items, got %zd", game, field,
                         n, len);
        else
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field '%s' must hold at most %zd items, got %zd",
                         game, field, -n - 1, len);
        return NULL;
    }
    return o;
}

/* A table of exactly n native doubles, held in a bytes object (array('d', ...).tobytes()). */
static inline const double *cs_table(PyObject *o, Py_ssize_t n, const char *game,
                                     const char *field) {
    if (!PyBytes_Check(o) || PyBytes_GET_SIZE(o) != n * (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: table '%s' must be bytes of %zd native doubles (%zd bytes)",
                     game, field, n, n * (Py_ssize_t)sizeof(double));
        return NULL;
    }
    return (const double *)PyBytes_AS_STRING(o);
}

/* A sequence of candidate actions as ints in 0..n_cards - 1 (at most max items); None: one
 * evaluation of the world as it is (*count = 0). */
static inline int cs_candidates(PyObject *o, int n_cards, int max, int *out, int *count,
                                const char *game) {
    *count = 0;
    if (o == Py_None) return 0;
    PyObject *seq = PySequence_Fast(o, "candidates must be a sequence of card ids or None");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > max) {
        PyErr_Format(PyExc_ValueError, "%s search: 'candidates' must hold 1..%d cards, got %zd",
                     game, max, n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c;
        if (cs_int(PySequence_Fast_GET_ITEM(seq, i), 0, n_cards - 1, &c, game, "candidates") <
            0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)c;
    }
    Py_DECREF(seq);
    *count = (int)n;
    return 0;
}

#endif
