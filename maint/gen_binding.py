#!/usr/bin/env python3
"""Generates the MPI binding layer from the API descriptions in maint/api/*.api.

Every public function is described once, by its parameters' kinds. From that one line this script
writes PMPI_X (argument checks, handle validation, the call to MPIR_X_impl, the error report that
names the function and every argument), the weak alias MPI_X, the large-count twin X_c and the
MPI-3 twin X_x where the description asks for them, and the prototypes in mpi_proto.h.

Description syntax (one function per line, '#' starts a comment):

    MPI_Type_vector(count: COUNT, blocklength: COUNT, stride: POLY, oldtype: DATATYPE,
                    newtype: DATATYPE_OUT) c impl_is_c

Continuation lines are joined until the parentheses balance. Flags after the parameter list:
    c         also generate NAME_c, where every poly kind takes MPI_Count
    x         also generate NAME_x (same signature as NAME_c)
    noinit    may be called before MPI_Init and after MPI_Finalize
    varargs   the C function takes '...' after its parameters, which no one reads (MPI_Pcontrol)
    cast      the function is its one argument converted to the return type, with no
              implementation function: the Fortran handle conversions (handles are ints in both)
    impl_is_c the implementation takes a trailing 'bool is_c' (true for the _c twin)
    impl=NAME call NAME instead of MPIR_<stem>_impl
    count_arrays  the COUNT and POLY arrays reach the implementation unwidened, each as an
              MPIR_Count_array (int elements in NAME, MPI_Count in NAME_c)
    errcomm   the implementation takes a trailing 'MPI_Comm *err_comm' (preset to MPI_COMM_NULL) and
              sets it to the communicator whose error handler should see the error (MPI_Wait & co.)
    init      on a nonblocking collective (MPI_Ibcast, ending with its request): also generate its
              persistent form (MPI_Bcast_init: the same arguments, then info and request) with its
              implementation, which keeps the arguments for every MPI_Start to run the nonblocking
              one's implementation with (MPIR_Coll_persistent_init, src/mpi/coll/persistent_coll.c)
    fast      first try MPIR_<stem>_fast(<the call's own arguments>, &copy), from
              mpir_<api file>_fast.h: true when the call is a common case that cannot fail and
              needs one copy more (an MPIR_Fast_copy), which MPIR_Fast_done then does as the last
              call; else the checked path runs as usual (MPI_Pack, MPI_Unpack)

Communicators and groups: COMM, COMM_INOUT (validated: MPI_ERR_COMM), COMM_OUT; GROUP,
GROUP_INOUT (validated: MPI_ERR_GROUP; MPI_GROUP_EMPTY is valid), GROUP_OUT. RAW(int (*)[3]) declares
a pointer to arrays of 3 (MPI_Group_range_incl).

Requests and statuses: REQUEST (a handle or MPI_REQUEST_NULL), REQUEST_OUT, REQUEST_INOUT (*p a
handle or MPI_REQUEST_NULL), STATUS_OUT (may be MPI_STATUS_IGNORE); STATUS, CONST_STATUS (a status
the call writes or reads: MPI_STATUS_IGNORE is MPI_ERR_ARG), and their Fortran twins F_STATUS,
CONST_F_STATUS (MPI_Fint[MPI_F_STATUS_SIZE]) and F08_STATUS, CONST_F08_STATUS (MPI_F08_status);
arrays REQUEST[n], REQUEST_INOUT[n] (entries may be MPI_REQUEST_NULL), INT_OUT[n], STATUS_OUT[n] (may be
MPI_STATUSES_IGNORE). Invalid request handles are MPI_ERR_REQUEST.

Operations and collectives: OP, OP_INOUT (validated: MPI_ERR_OP), OP_OUT; DATATYPE_IMPL (a datatype
left for the implementation to check where it is significant: root-only arguments, send types
ignored with MPI_IN_PLACE); COUNTS(comm), DISPLS(comm), DATATYPES(comm) (the per-rank arrays of the
v/w collectives, one entry per rank comm addresses, unchecked and possibly NULL; counts and
displacements reach the implementation unwidened, as an MPIR_Count_array / MPIR_Aint_array of the
user's int or MPI_Count / MPI_Aint elements: a collective allocates nothing before its schedule,
which takes part even when it fails). COUNTS(comm, root=root) is read only at the root, and
COUNTS(comm, inplace=sendbuf) only when sendbuf is not MPI_IN_PLACE; elsewhere the implementation
gets NULL for it. AINT_DISPLS(comm) are displacements of MPI_Aint in both forms (the neighbourhood
collectives' w form, whose arrays have an entry per neighbour instead).

Datatypes: DATATYPE (valid: MPI_ERR_TYPE), DATATYPE_OR_NULL (also MPI_DATATYPE_NULL),
DATATYPE_COMMITTED (valid and committed), DATATYPE_RECORD (the same checks, and the implementation
takes the MPID_Datatype * they looked up instead of the handle), DATATYPE_OUT, DATATYPE_INOUT.

Info objects and windows: INFO (validated: MPI_ERR_INFO; MPI_INFO_ENV is valid), INFO_OR_NULL (also
MPI_INFO_NULL), INFO_OUT, INFO_INOUT; WIN (validated: MPI_ERR_WIN), WIN_OUT, WIN_INOUT.

Usage: gen_binding.py API_DIR OUT_DIR
"""
import os
import re
import sys

# kind -> (C type, C type in the _c/_x twin, implementation type)
#   Poly kinds change width in the large-count twin; the implementation always takes the wide one.
SCALARS = {
    'COUNT': ('int', 'MPI_Count', 'MPI_Count'),      # non-negative count
    'POLY': ('int', 'MPI_Count', 'MPI_Count'),       # signed integer that widens (stride, displacement)
    'ADDR': ('MPI_Aint', 'MPI_Count', 'MPI_Aint'),   # byte displacement that becomes MPI_Count in _c
    'DISP_UNIT': ('int', 'MPI_Aint', 'MPI_Aint'),    # a window's displacement unit: MPI_Aint in _c
    'AINT': ('MPI_Aint', 'MPI_Aint', 'MPI_Aint'),
    'INT': ('int', 'int', 'int'),
    'DATATYPE': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
    'DATATYPE_OR_NULL': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
    'DATATYPE_COMMITTED': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),  # valid and committed
    # the same checks, and the implementation gets the record the check looked up: for the calls
    # made per message (MPI_Pack, MPI_Unpack), where a second lookup is a visible part of the call
    'DATATYPE_RECORD': ('MPI_Datatype', 'MPI_Datatype', 'MPID_Datatype *'),
    'COMM': ('MPI_Comm', 'MPI_Comm', 'MPI_Comm'),
    'INFO': ('MPI_Info', 'MPI_Info', 'MPI_Info'),            # a valid info object (MPI_ERR_INFO)
    'INFO_OR_NULL': ('MPI_Info', 'MPI_Info', 'MPI_Info'),    # the same, or MPI_INFO_NULL
    'WIN': ('MPI_Win', 'MPI_Win', 'MPI_Win'),                # a valid window (MPI_ERR_WIN)
    'OP': ('MPI_Op', 'MPI_Op', 'MPI_Op'),            # a valid operation (MPI_ERR_OP)
    # a datatype the implementation validates where it is significant (root-only arguments,
    # send types ignored with MPI_IN_PLACE): passed through unchecked
    'DATATYPE_IMPL': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
    'GROUP': ('MPI_Group', 'MPI_Group', 'MPI_Group'),           # a group (MPI_GROUP_EMPTY included)
    'ERRHANDLER': ('MPI_Errhandler', 'MPI_Errhandler', 'MPI_Errhandler'),
    'KEYVAL': ('int', 'int', 'int'),
    'REQUEST': ('MPI_Request', 'MPI_Request', 'MPI_Request'),     # a request or MPI_REQUEST_NULL
    'BUF': ('const void *', 'const void *', 'const void *'),
    'PTR': ('void *', 'void *', 'void *'),
    'STRING': ('const char *', 'const char *', 'const char *'),
}
# pointer kinds: (C type, C type in twin, impl type, must be non-NULL)
POINTERS = {
    'DATATYPE_OUT': ('MPI_Datatype *', 'MPI_Datatype *', 'MPI_Datatype *', True),
    'DATATYPE_INOUT': ('MPI_Datatype *', 'MPI_Datatype *', 'MPI_Datatype *', True),
    'COMM_INOUT': ('MPI_Comm *', 'MPI_Comm *', 'MPI_Comm *', True),
    'COMM_OUT': ('MPI_Comm *', 'MPI_Comm *', 'MPI_Comm *', True),
    'INFO_OUT': ('MPI_Info *', 'MPI_Info *', 'MPI_Info *', True),
    'INFO_INOUT': ('MPI_Info *', 'MPI_Info *', 'MPI_Info *', True),
    'WIN_OUT': ('MPI_Win *', 'MPI_Win *', 'MPI_Win *', True),
    'WIN_INOUT': ('MPI_Win *', 'MPI_Win *', 'MPI_Win *', True),
    'GROUP_OUT': ('MPI_Group *', 'MPI_Group *', 'MPI_Group *', True),
    'GROUP_INOUT': ('MPI_Group *', 'MPI_Group *', 'MPI_Group *', True),
    'ERRHANDLER_OUT': ('MPI_Errhandler *', 'MPI_Errhandler *', 'MPI_Errhandler *', True),
    'OP_OUT': ('MPI_Op *', 'MPI_Op *', 'MPI_Op *', True),
    'OP_INOUT': ('MPI_Op *', 'MPI_Op *', 'MPI_Op *', True),
    'ERRHANDLER_INOUT': ('MPI_Errhandler *', 'MPI_Errhandler *', 'MPI_Errhandler *', True),
    'INT_OUT': ('int *', 'int *', 'int *', True),
    'LCOUNT_OUT': ('MPI_Count *', 'MPI_Count *', 'MPI_Count *', True),
    'INT_INOUT': ('int *', 'int *', 'int *', True),
    'AINT_OUT': ('MPI_Aint *', 'MPI_Aint *', 'MPI_Aint *', True),
    'ADDR_OUT': ('MPI_Aint *', 'MPI_Count *', 'MPI_Aint *', True),
    'COUNT_OUT': ('int *', 'MPI_Count *', 'MPI_Count *', True),   # MPI_UNDEFINED if it does not fit
    'DISP_UNIT_OUT': ('int *', 'MPI_Aint *', 'MPI_Aint *', True),  # the same
    'COUNT_INOUT': ('int *', 'MPI_Count *', 'MPI_Count *', True),  # a position: in and out
    'ADDR_INOUT': ('MPI_Aint *', 'MPI_Count *', 'MPI_Aint *', True),
    'PTR_OUT': ('void *', 'void *', 'void *', True),
    'STRING_OUT': ('char *', 'char *', 'char *', True),
    'STATUS': ('MPI_Status *', 'MPI_Status *', 'MPI_Status *', True),
    'CONST_STATUS': ('const MPI_Status *', 'const MPI_Status *', 'const MPI_Status *', True),
    'F_STATUS': ('MPI_Fint *', 'MPI_Fint *', 'MPI_Fint *', True),
    'CONST_F_STATUS': ('const MPI_Fint *', 'const MPI_Fint *', 'const MPI_Fint *', True),
    'F08_STATUS': ('MPI_F08_status *', 'MPI_F08_status *', 'MPI_F08_status *', True),
    'CONST_F08_STATUS': ('const MPI_F08_status *', 'const MPI_F08_status *', 'const MPI_F08_status *', True),
    'STATUS_OUT': ('MPI_Status *', 'MPI_Status *', 'MPI_Status *', True),   # or MPI_STATUS_IGNORE
    'REQUEST_OUT': ('MPI_Request *', 'MPI_Request *', 'MPI_Request *', True),
    'REQUEST_INOUT': ('MPI_Request *', 'MPI_Request *', 'MPI_Request *', True),
}
# statuses a call reads or writes, which must be real ones: kind -> its language's ignore sentinel
REAL_STATUSES = {'STATUS': 'MPI_STATUS_IGNORE', 'CONST_STATUS': 'MPI_STATUS_IGNORE',
                 'F_STATUS': 'MPI_F_STATUS_IGNORE', 'CONST_F_STATUS': 'MPI_F_STATUS_IGNORE',
                 'F08_STATUS': 'MPI_F08_STATUS_IGNORE', 'CONST_F08_STATUS': 'MPI_F08_STATUS_IGNORE'}
# array kinds (written NAME: KIND[length]): (C element type, twin element type, impl element type)
ARRAYS = {
    'COUNT': ('int', 'MPI_Count', 'MPI_Count'),
    'POLY': ('int', 'MPI_Count', 'MPI_Count'),
    'ADDR': ('MPI_Aint', 'MPI_Count', 'MPI_Aint'),
    'INT': ('int', 'int', 'int'),
    'DATATYPE': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
    'REQUEST': ('MPI_Request', 'MPI_Request', 'MPI_Request'),
    'REQUEST_INOUT': ('MPI_Request', 'MPI_Request', 'MPI_Request'),
    'INT_OUT': ('int', 'int', 'int'),
    'STATUS_OUT': ('MPI_Status', 'MPI_Status', 'MPI_Status'),     # or MPI_STATUSES_IGNORE
}
OUT_ARRAYS = {'REQUEST_INOUT', 'INT_OUT', 'STATUS_OUT'}   # written by the call: not const
# per-process arrays of the vector collectives (written NAME: KIND(comm)): one entry per rank the
# communicator addresses, significant only on some ranks, so unchecked here and NULL allowed; the
# int twin is widened to the implementation type. (C element type, twin element type, impl type)
VECTORS = {
    'COUNTS': ('int', 'MPI_Count', 'MPI_Count'),
    'DISPLS': ('int', 'MPI_Aint', 'MPI_Aint'),
    'AINT_DISPLS': ('MPI_Aint', 'MPI_Aint', 'MPI_Aint'),     # MPI_Neighbor_alltoallw: MPI_Aint in both
    'DATATYPES': ('MPI_Datatype', 'MPI_Datatype', 'MPI_Datatype'),
}
# the vectors passed as a view of the user's array: (view type, its member for the wide twin)
VECTOR_VIEWS = {'COUNTS': ('MPIR_Count_array', 'counts'), 'DISPLS': ('MPIR_Aint_array', 'aints'),
                'AINT_DISPLS': ('MPIR_Aint_array', 'aints')}
# the kinds passed as one datatype handle (named in the error report)
DATATYPE_HANDLES = ('DATATYPE', 'DATATYPE_OR_NULL', 'DATATYPE_COMMITTED', 'DATATYPE_RECORD', 'DATATYPE_IMPL')
WIDE = {'int': False, 'MPI_Count': True, 'MPI_Aint': True, 'MPI_Datatype': False}


def declare(t, name):
    """A declaration of name with C type t ('int (*)[3]' puts the name inside the parentheses)."""
    if '(*)' in t:
        return t.replace('(*)', f'(*{name})', 1)
    return f'{t}{name}' if t.endswith('*') else f'{t} {name}'


class Param:
    def __init__(self, name, kind):
        self.name = name
        m = re.fullmatch(r'(\w+)\[(\w+)\]', kind)
        self.length = None
        self.comm = None
        self.significant = None     # C condition under which a VECTORS array is read
        self.view = False           # passed as an MPIR_Count_array (the flag count_arrays)
        v = re.fullmatch(r'(\w+)\((\w+)(?:, (root|inplace)=(\w+))?\)', kind)
        if v and v.group(1) in VECTORS:
            self.kind, self.comm = v.group(1), v.group(2)
            if v.group(3) == 'root':
                self.significant = f'MPIR_Comm_is_root(MPIR_Comm_lookup({self.comm}), {v.group(4)})'
            elif v.group(3) == 'inplace':
                self.significant = f'{v.group(4)} != MPI_IN_PLACE'
        elif m:
            self.kind, self.length = m.group(1), m.group(2)
            if self.kind not in ARRAYS:
                raise SystemExit(f'unknown array kind {kind}')
        elif kind.startswith('RAW(') and kind.endswith(')'):
            self.kind = 'RAW'
            self.raw = kind[4:-1].strip()
        elif kind.startswith('FUNC(') and kind.endswith(')'):
            self.kind = 'FUNC'
            self.raw = kind[5:-1].strip() + ' *'
        else:
            self.kind = kind
            if kind not in SCALARS and kind not in POINTERS:
                raise SystemExit(f'unknown kind {kind}')

    def ctype(self, large):
        if self.comm:
            return 'const ' + VECTORS[self.kind][1 if large else 0] + ' *'
        if self.length:
            return self.const() + ARRAYS[self.kind][1 if large else 0] + ' *'
        if self.kind in ('RAW', 'FUNC'):
            return self.raw
        table = SCALARS if self.kind in SCALARS else POINTERS
        return table[self.kind][1 if large else 0]

    def const(self):
        return '' if self.kind in OUT_ARRAYS else 'const '

    def decl(self, large):
        t = self.ctype(large)
        return declare(t, self.name)

    def impl_decl(self):
        if self.view:
            return declare('MPIR_Count_array', self.name)
        if self.comm and self.kind in VECTOR_VIEWS:
            return declare(VECTOR_VIEWS[self.kind][0], self.name)
        if self.comm:
            t = 'const ' + VECTORS[self.kind][2] + ' *'
        elif self.length:
            t = self.const() + ARRAYS[self.kind][2] + ' *'
        elif self.kind in ('RAW', 'FUNC'):
            t = self.raw
        else:
            t = (SCALARS if self.kind in SCALARS else POINTERS)[self.kind][2]
        return declare(t, self.name)

    def needs_widening(self, large):
        """An int array that the implementation takes as 64-bit values."""
        if self.view or self.comm:
            return False
        if not self.length:
            return False
        c = ARRAYS[self.kind][1 if large else 0]
        return c == 'int' and ARRAYS[self.kind][2] != 'int'


class Function:
    def __init__(self, name, params, flags):
        self.name = name
        self.params = params
        self.flags = set(f for f in flags if '=' not in f)
        self.impl = 'MPIR_' + name.split('_', 1)[1] + '_impl'
        self.returns = None     # a function that returns a value, not an error code
        self.persistent = None  # the nonblocking collective a persistent one starts (its Function)
        for f in flags:
            if f.startswith('impl='):
                self.impl = f[5:]
            elif f.startswith('returns='):
                self.returns = f[8:].replace('_', ' ') if f[8:] == 'unused' else f[8:]
        # count_arrays: the int/MPI_Count arrays reach the implementation as they are, in an
        # MPIR_Count_array, not widened into a temporary: it records them once, straight into the
        # type's contents (a 1M-block MPI_Type_indexed wrote 16 MB of temporaries)
        if 'count_arrays' in self.flags:
            for p in params:
                p.view = bool(p.length) and ARRAYS[p.kind][0] == 'int' and ARRAYS[p.kind][1] == 'MPI_Count'

    def decls(self, large):
        """The C parameter list (the variadic tail too: the implementation does not see it)."""
        named = ', '.join(p.decl(large) for p in self.params)
        return named + ', ...' if 'varargs' in self.flags else named or 'void'


def parse(path):
    text = re.sub(r'#[^\n]*', '', open(path).read())
    funcs = []
    pos = 0
    while True:
        m = re.compile(r'(MPIX?_\w+)\s*\(').search(text, pos)
        if not m:
            return funcs
        depth, i = 1, m.end()
        while depth:
            depth += {'(': 1, ')': -1}.get(text[i], 0)
            i += 1
        plist = text[m.end():i - 1]
        eol = text.find('\n', i)
        eol = len(text) if eol < 0 else eol
        flags = text[i:eol].split()
        pos = eol
        params, depth, cur = [], 0, ''
        for ch in plist + ',':
            if ch == ',' and depth == 0:
                if cur.strip():
                    pname, kind = [t.strip() for t in cur.split(':', 1)]
                    params.append(Param(pname, ' '.join(kind.split())))
                cur = ''
                continue
            depth += {'(': 1, ')': -1}.get(ch, 0)
            cur += ch
        funcs.append(Function(m.group(1), params, flags))


def fmt_of(p, large):
    """printf conversion and argument for the error report."""
    if p.kind == 'RAW' and '*' not in p.raw:
        return ('%lld', f'(long long) {p.name}') if 'Count' in p.raw else ('%d', f'(int) {p.name}')
    if p.length or p.comm or p.kind in POINTERS or p.kind in ('PTR', 'BUF', 'STRING', 'RAW', 'FUNC'):
        if p.kind == 'FUNC':
            return '%p', f'(void *) (size_t) {p.name}'
        return '%p', f'(const void *) {p.name}'
    if p.kind in DATATYPE_HANDLES:
        return '%s', f'MPIR_Datatype_str({p.name}, s_{p.name})'
    if p.kind == 'OP':
        return '%s', f'MPIR_Op_str({p.name}, s_{p.name})'
    if p.kind in ('INFO', 'INFO_OR_NULL', 'WIN'):
        return '%#x', f'(unsigned) {p.name}'
    if p.kind == 'COMM':
        return '%s', f'MPIR_Comm_str({p.name}, s_{p.name})'
    if p.kind in ('ERRHANDLER', 'KEYVAL', 'REQUEST', 'GROUP'):
        return '%#x', f'(unsigned) {p.name}'
    t = p.ctype(large)
    if t == 'int':
        return '%d', p.name
    return '%lld', f'(long long) {p.name}'


def info_why(n):
    """The reason for an unusable info handle n (a C expression), as a printf argument."""
    return f'{n} == MPI_INFO_NULL ? "MPI_INFO_NULL" : "not a valid info object (never created, or already freed)"'


def win_why(n):
    return f'{n} == MPI_WIN_NULL ? "MPI_WIN_NULL" : "not a valid window (never created, or already freed)"'


def check_lines(fn, p, large):
    """Argument checks in the order the parameters appear."""
    n = p.name
    out = []
    def fail(cls, msg, *args):
        a = ''.join(', ' + x for x in args)
        return f'{{ err = MPIR_Err({cls}, "{msg}"{a}); goto fn_fail; }}'
    if p.comm:
        return out      # the implementation checks them where they are significant
    if p.length:
        out.append(f'if ({p.length} > 0 && {n} == NULL) ' + fail('MPI_ERR_ARG', f'{n} is NULL'))
        if p.kind == 'COUNT':
            out.append(f'for (MPI_Count i_ = 0; i_ < (MPI_Count) {p.length}; i_++)')
            out.append(f'    if ({n}[i_] < 0) ' + fail('MPI_ERR_COUNT',
                       f'invalid {n}[%lld] = %lld, must be non-negative', '(long long) i_',
                       f'(long long) {n}[i_]'))
        elif p.kind == 'DATATYPE':
            out.append(f'for (MPI_Count i_ = 0; i_ < (MPI_Count) {p.length}; i_++)')
            out.append(f'    if (!MPID_Datatype_lookup({n}[i_])) {{ err = MPIR_Err_datatype("{n}", {n}[i_], i_); goto fn_fail; }}')
        elif p.kind in ('REQUEST', 'REQUEST_INOUT'):
            out.append(f'for (MPI_Count i_ = 0; i_ < (MPI_Count) {p.length}; i_++)')
            out.append(f'    if ({n}[i_] != MPI_REQUEST_NULL && !MPIR_Request_lookup({n}[i_])) '
                       + fail('MPI_ERR_REQUEST', f'{n}[%lld] = %#x is not a valid request', '(long long) i_',
                              f'(unsigned) {n}[i_]'))
        return out
    k = p.kind
    if k == 'COUNT':
        out.append(f'if ({n} < 0) ' + fail('MPI_ERR_COUNT', f'invalid {n}, must be non-negative'))
    elif k == 'DATATYPE':
        out.append(f'if (!MPID_Datatype_lookup({n})) {{ err = MPIR_Err_datatype("{n}", {n}, -1); goto fn_fail; }}')
    elif k in ('DATATYPE_COMMITTED', 'DATATYPE_RECORD'):
        # one lookup for both checks (kept in r_NAME for a DATATYPE_RECORD)
        r = f'r_{n}' if k == 'DATATYPE_RECORD' else 'dt_'
        out.append(f'{{ const MPID_Datatype *dt_ = MPID_Datatype_lookup({n});' if r == 'dt_'
                   else f'{{ {r} = MPID_Datatype_lookup({n});')
        out.append(f'  if (!{r}) {{ err = MPIR_Err_datatype("{n}", {n}, -1); goto fn_fail; }}')
        out.append(f'  if (!{r}->is_committed) '
                   + fail('MPI_ERR_TYPE', f'{n} is not committed (call MPI_Type_commit first)') + ' }')
    elif k == 'DATATYPE_OR_NULL':
        out.append(f'if ({n} != MPI_DATATYPE_NULL && !MPID_Datatype_lookup({n})) '
                   f'{{ err = MPIR_Err_datatype("{n}", {n}, -1); goto fn_fail; }}')
    elif k == 'COMM':
        out.append(f'if (!MPIR_Comm_valid({n})) ' + fail('MPI_ERR_COMM', f'invalid communicator {n}'))
    elif k == 'GROUP':
        out.append(f'if (!MPIR_Group_lookup({n})) ' + fail('MPI_ERR_GROUP', f'invalid group {n}'))
    elif k == 'OP':
        out.append(f'if (!MPIR_Op_lookup({n})) ' + fail('MPI_ERR_OP', f'invalid operation {n}'))
    elif k == 'INFO':
        out.append(f'if (!MPIR_Info_lookup({n})) ' + fail('MPI_ERR_INFO', f'{n} is %s', info_why(n)))
    elif k == 'INFO_OR_NULL':
        out.append(f'if ({n} != MPI_INFO_NULL && !MPIR_Info_lookup({n})) '
                   + fail('MPI_ERR_INFO', f'{n} is not a valid info object (never created, or already freed)'))
    elif k == 'WIN':
        out.append(f'if (!MPIR_Win_lookup({n})) ' + fail('MPI_ERR_WIN', f'{n} is %s', win_why(n)))
    elif k == 'ERRHANDLER':
        out.append(f'if (!MPIR_Errhandler_lookup({n})) '
                   + fail('MPI_ERR_ERRHANDLER', f'invalid error handler {n}'))
    elif k == 'REQUEST':
        out.append(f'if ({n} != MPI_REQUEST_NULL && !MPIR_Request_lookup({n})) '
                   + fail('MPI_ERR_REQUEST', f'{n} is not a valid request'))
    elif k == 'STRING':
        out.append(f'if ({n} == NULL) ' + fail('MPI_ERR_ARG', f'{n} is NULL'))
    elif k in POINTERS:
        out.append(f'if ({n} == NULL) ' + fail('MPI_ERR_ARG', f'{n} is NULL'))
        if k in REAL_STATUSES:
            ignore = REAL_STATUSES[k]   # the same pointer as its plural (mpi.h)
            out.append(f'if ({n} == {ignore}) '
                       + fail('MPI_ERR_ARG', f'{n} is {ignore}: there is no status to read or write'))
        elif k == 'DATATYPE_INOUT':
            out.append(f'if (!MPID_Datatype_lookup(*{n})) {{ err = MPIR_Err_datatype("*{n}", *{n}, -1); goto fn_fail; }}')
        elif k == 'GROUP_INOUT':
            out.append(f'if (!MPIR_Group_lookup(*{n})) ' + fail('MPI_ERR_GROUP', f'invalid group *{n}'))
        elif k == 'COMM_INOUT':
            out.append(f'if (!MPIR_Comm_lookup(*{n})) ' + fail('MPI_ERR_COMM', f'invalid communicator *{n}'))
        elif k == 'REQUEST_INOUT':
            out.append(f'if (*{n} != MPI_REQUEST_NULL && !MPIR_Request_lookup(*{n})) '
                       + fail('MPI_ERR_REQUEST', f'*{n} is not a valid request'))
        elif k == 'OP_INOUT':
            out.append(f'if (!MPIR_Op_lookup(*{n})) ' + fail('MPI_ERR_OP', f'invalid operation *{n}'))
        elif k == 'INFO_INOUT':
            out.append(f'if (!MPIR_Info_lookup(*{n})) ' + fail('MPI_ERR_INFO', f'*{n} is %s', info_why('*' + n)))
        elif k == 'WIN_INOUT':
            out.append(f'if (!MPIR_Win_lookup(*{n})) ' + fail('MPI_ERR_WIN', f'*{n} is %s', win_why('*' + n)))
        elif k == 'ERRHANDLER_INOUT':
            out.append(f'if (!MPIR_Errhandler_lookup(*{n})) '
                       + fail('MPI_ERR_ERRHANDLER', f'invalid error handler *{n}'))
    return out


def emit_function(fn, suffix, large, out):
    name = fn.name + suffix
    decls = fn.decls(large)
    if fn.returns:
        # conversions and address arithmetic: no error code to report, nothing to check
        call = f'({fn.returns}) {fn.params[0].name}' if 'cast' in fn.flags \
            else f'{fn.impl}({", ".join(p.name for p in fn.params)})'
        out.append(f'{fn.returns} P{name}({decls})\n{{\n    return {call};\n}}\n')
        out.append('#ifdef HAVE_WEAK_ALIAS\n'
                   f'{fn.returns} {name}({decls}) __attribute__((weak, alias("P{name}")));\n'
                   '#else\n'
                   f'{fn.returns} {name}({decls})\n{{\n    return P{name}({", ".join(p.name for p in fn.params)});\n}}\n'
                   '#endif\n')
        return
    body = []
    body.append('    int err = MPI_SUCCESS;')
    widened = [p for p in fn.params if p.needs_widening(large)]
    for p in widened:
        body.append(f'    {(VECTORS if p.comm else ARRAYS)[p.kind][2]} *w_{p.name} = NULL;')
    narrowed = [p for p in fn.params if p.kind in ('COUNT_OUT', 'COUNT_INOUT', 'DISP_UNIT_OUT') and not large]
    for p in narrowed:
        body.append(f'    {POINTERS[p.kind][2].rstrip(" *")} n_{p.name} = 0;')
    if 'errcomm' in fn.flags:
        body.append('    MPI_Comm err_comm = MPI_COMM_NULL;')
    for p in fn.params:
        if p.kind == 'DATATYPE_RECORD':
            body.append(f'    MPID_Datatype *r_{p.name} = NULL;')
    if 'noinit' not in fn.flags:
        body.append('    if (!MPIR_Is_initialized()) { err = MPIR_Err_not_initialized(); goto fn_fail; }')
    for p in fn.params:
        for line in check_lines(fn, p, large):
            body.append('    ' + line)
    for p in narrowed:
        if p.kind == 'COUNT_INOUT':
            body.append(f'    n_{p.name} = *{p.name};')
    for p in widened:
        body.append(f'    err = MPIR_Widen_ints({p.name}, {p.length}, &w_{p.name});')
        body.append('    if (err) goto fn_fail;')
    args = []
    for p in fn.params:
        if p in widened:
            args.append(f'w_{p.name}')
        elif p.view:
            args.append(f'(MPIR_Count_array){{ .{"counts" if large else "ints"} = {p.name} }}')
        elif p.comm and p.kind in VECTOR_VIEWS:
            # an array that is not significant here is not read at all (it may be garbage)
            view, member = VECTOR_VIEWS[p.kind]
            value = f'{p.significant} ? {p.name} : NULL' if p.significant else p.name
            narrow = not large and VECTORS[p.kind][0] == 'int'
            args.append(f'({view}){{ .{"ints" if narrow else member} = {value} }}')
        elif p in narrowed:
            args.append(f'&n_{p.name}')
        elif p.kind in ('ADDR_OUT', 'ADDR_INOUT') and large:
            args.append(f'(MPI_Aint *) {p.name}')
        elif p.length and large and ARRAYS[p.kind][1] != ARRAYS[p.kind][2]:
            args.append(f'(const {ARRAYS[p.kind][2]} *) {p.name}')
        elif p.kind == 'DATATYPE_RECORD':
            args.append(f'r_{p.name}')
        else:
            args.append(p.name)
    if 'impl_is_c' in fn.flags:
        args.append('true' if suffix == '_c' else 'false')
    if 'errcomm' in fn.flags:
        args.append('&err_comm')
    body.append(f'    err = {fn.impl}({", ".join(args)});')
    if not any('goto fn_fail' in line for line in body):
        body.append('    goto fn_fail;   /* one exit path, also for calls that check nothing */')
    for p in narrowed:
        body.append(f'    if (err == MPI_SUCCESS) *{p.name} = n_{p.name} > INT_MAX ? MPI_UNDEFINED : (int) n_{p.name};')
    body.append('  fn_fail:')
    for p in widened:
        body.append(f'    free(w_{p.name});')
    body.append('    if (err != MPI_SUCCESS) {')
    fmts, fargs = [], []
    for p in fn.params:
        f, a = fmt_of(p, large)
        fmts.append(f'{p.name}={f}')
        fargs.append(a)
        if (p.kind in DATATYPE_HANDLES or p.kind in ('COMM', 'OP')) \
                and not p.length and not p.comm:
            body.append(f'        char s_{p.name}[MPIR_HANDLE_STR_MAX];')
    # the object whose error handler sees the error: the communicator, else the window (MPI 4.1,
    # 9.3: errors of window calls go to the window's handler), else none
    sink = next((p.name for p in fn.params if p.kind == 'COMM'), None) \
        or next((p.name for p in fn.params if p.kind == 'WIN'), None) \
        or next((f'({p.name} ? *{p.name} : MPI_COMM_NULL)' for p in fn.params if p.kind == 'WIN_INOUT'),
                'MPI_COMM_NULL')
    if 'errcomm' in fn.flags:
        sink = 'err_comm'
    argstr = ''.join(', ' + a for a in fargs)
    body.append(f'        err = MPIR_Err_return({sink}, err, "{name}({", ".join(fmts)})"{argstr});')
    body.append('    }')
    body.append('    return err;')
    own_args = ", ".join(p.name for p in fn.params)
    if 'fast' in fn.flags:
        # the checked path in a function of its own, so that the fast one needs no stack frame
        # (no register saved and restored around its copy: see mpir_pack_fast.h); the fast one
        # added late (MPIR_LATE), so the checked one takes the place the whole function had
        stem = fn.name.split('_', 1)[1]
        checked = f'checked_{stem}{suffix}'   # not MPI_*: a profiler reading symbols would take it for one
        out.append(f'static __attribute__((noinline)) int {checked}({decls})\n{{\n' + '\n'.join(body) + '\n}\n')
        out.append(f'MPIR_LATE int P{name}({decls})\n{{\n    MPIR_Fast_copy copy_;\n'
                   f'    if (MPIR_{stem}_fast({own_args}, &copy_))\n'
                   f'        return MPIR_Fast_done(copy_.typed, copy_.stream, copy_.n, copy_.plan, copy_.pack);\n'
                   f'    return {checked}({own_args});\n}}\n')
    else:
        out.append(f'int P{name}({decls})\n{{\n' + '\n'.join(body) + '\n}\n')
    out.append('#ifdef HAVE_WEAK_ALIAS\n'
               f'int {name}({decls}) __attribute__((weak, alias("P{name}")));\n'
               '#else\n'
               f'int {name}({decls})\n{{\n    return P{name}({", ".join(p.name for p in fn.params)});\n}}\n'
               '#endif\n')


def persistent_form(fn):
    """MPI_Ibcast(..., request) -> MPI_Bcast_init(..., info, request), which starts fn."""
    if not fn.name.startswith('MPI_I') or [p.name for p in fn.params[-1:]] != ['request']:
        raise SystemExit(f'{fn.name}: the flag init needs a nonblocking collective ending with its request')
    name = 'MPI_' + fn.name[5].upper() + fn.name[6:] + '_init'
    init = Function(name, fn.params[:-1] + [Param('info', 'INFO_OR_NULL'), Param('request', 'REQUEST_OUT')],
                    [f for f in fn.flags if f in ('c',)])
    init.persistent = fn
    return init


def emit_persistent(fn, out):
    """The implementation of a persistent collective: its arguments kept for the starts."""
    target, kept = fn.persistent, fn.params[:-2]
    stem = fn.name.split('_', 1)[1]
    fields = ''.join(f'    {p.impl_decl()};\n' for p in kept)
    names = ', '.join(p.name for p in kept)
    out.append(f'\n/* {fn.name}: the arguments every MPI_Start runs {target.name} with */\n'
               f'typedef struct {{\n{fields}}} {stem}_args;\n\n'
               f'static int {stem}_start(const void *args, MPI_Request *request)\n{{\n'
               f'    const {stem}_args *a = args;\n'
               f'    return {target.impl}({", ".join("a->" + p.name for p in kept)}, request);\n}}\n\n'
               f'int {fn.impl}({", ".join(p.impl_decl() for p in fn.params)})\n{{\n'
               f'    (void) info;    /* no hint changes what a start does */\n'
               f'    {stem}_args a = {{ {names} }};\n'
               f'    return MPIR_Coll_persistent_init(comm, &a, sizeof a, {stem}_start, request);\n}}\n')


def variants(fn):
    yield '', False
    if 'c' in fn.flags:
        yield '_c', True
    if 'x' in fn.flags:
        yield '_x', True


def main():
    api_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    generated, protos, impl_protos = [], [], []
    files = sorted(f for f in os.listdir(api_dir) if f.endswith('.api'))
    for fname in files:
        funcs = []
        for fn in parse(os.path.join(api_dir, fname)):
            funcs += [fn, persistent_form(fn)] if 'init' in fn.flags else [fn]
        stem = fname[:-4]
        out = [f'/* Generated by maint/gen_binding.py from maint/api/{fname}: do not edit. */\n',
               '#include "mpiimpl.h"\n', '#include "mpir_impl_proto.h"\n']
        if any('fast' in fn.flags for fn in funcs):
            out.append(f'#include "mpir_{stem}_fast.h"\n')
        for fn in funcs:
            idecl = [p.impl_decl() for p in fn.params] + (['bool is_c'] if 'impl_is_c' in fn.flags else []) \
                + (['MPI_Comm *err_comm'] if 'errcomm' in fn.flags else [])
            rtype = fn.returns or 'int'
            proto = f'{rtype} {fn.impl}({", ".join(idecl) or "void"});'
            if 'cast' not in fn.flags and proto not in impl_protos:
                impl_protos.append(proto)
            if fn.persistent:
                emit_persistent(fn, out)
            for suffix, large in variants(fn):
                emit_function(fn, suffix, large, out)
                decls = fn.decls(large)
                rtype = fn.returns or 'int'
                protos.append(f'{rtype} {fn.name}{suffix}({decls});')
                protos.append(f'{rtype} P{fn.name}{suffix}({decls});')
        path = os.path.join(out_dir, f'binding_{stem}.c')
        write_if_changed(path, '\n'.join(out))
        generated.append(path)
    header = ['/* Generated by maint/gen_binding.py: the prototypes of every MPI_ and PMPI_ function. */',
              '#ifndef LOOM_MPI_PROTO_H_INCLUDED', '#define LOOM_MPI_PROTO_H_INCLUDED', ''] + protos + ['', '#endif']
    write_if_changed(os.path.join(out_dir, 'mpi_proto.h'), '\n'.join(header) + '\n')
    header = ['/* Generated by maint/gen_binding.py: what each binding calls. */',
              '#ifndef MPIR_IMPL_PROTO_H_INCLUDED', '#define MPIR_IMPL_PROTO_H_INCLUDED',
              '#include <stdbool.h>', ''] + impl_protos + ['', '#endif']
    write_if_changed(os.path.join(out_dir, 'mpir_impl_proto.h'), '\n'.join(header) + '\n')
    mk = ['# Generated by maint/gen_binding.py: do not edit.',
          'libmpi_la_SOURCES += ' + ' '.join(sorted(generated)),
          'include_HEADERS += src/binding/mpi_proto.h',
          'noinst_HEADERS += src/binding/mpir_impl_proto.h', '']
    write_if_changed(os.path.join(out_dir, 'Makefile.mk'), '\n'.join(mk))


def write_if_changed(path, text):
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
