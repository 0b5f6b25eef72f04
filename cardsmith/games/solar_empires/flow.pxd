# For the compiled build: the `s: "SolarState"` annotations in flow.py become the extension type, and
# the two option listings that run after nearly every action get C-typed locals.
cimport cython
from cardsmith.games.solar_empires.state cimport SolarState

@cython.locals(e=long, m=long, o=long, t=long, acts=list, seen=set, c=tuple, h=tuple)
cpdef tuple construct_actions(SolarState s, p, bint probe=*)

@cython.locals(i=Py_ssize_t, k=long, acts=list, seen=set, at=list, dmg=list, design=tuple, table=tuple,
               planet=list, flare=list, targets=list, row=tuple)
cpdef tuple _deploy(SolarState s, p)
