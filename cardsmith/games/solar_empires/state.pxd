# Declarations for the compiled build (Cython reads them beside state.py; plain Python ignores them).
# SolarState becomes an extension type with these attributes, so the rules modules that cimport it
# reach them as C struct fields instead of by name (most of a simulated game's work). Every attribute
# stays readable and writable from Python (`public`). Keep this list the same as `__slots__`.
cdef class SolarState:
    cdef public object t
    cdef public object chance
    cdef public object _chance_shared
    cdef public list log
    cdef public object rec
    cdef public object loud
    cdef public object winner
    cdef public object end_reason
    cdef public object _legal
    cdef public object turn
    cdef public object priority
    cdef public object current_player
    cdef public object dec
    cdef public object stage
    cdef public object stage_i
    cdef public list deck
    cdef public list hand
    cdef public list disc
    cdef public list ships
    cdef public list events
    cdef public list at
    cdef public list dmg
    cdef public list planet
    cdef public list ctrl
    cdef public list bldg
    cdef public object star
    cdef public object black_hole
    cdef public list removed
    cdef public list ev_done
    cdef public list sp_done
    cdef public list cannon_done
    cdef public list flare
    cdef public list swarm
    cdef public dict gaze
    cdef public list played
    cdef public object pick
    cdef public list cpending
    cdef public list cfx
    cdef public object cpos
    cdef public object cstage
    cdef public list cf
    cdef public list point
    cdef public list point_max
    cdef public object cshots
    cdef public object cfirst
    cdef public object catt
    cdef public object pd_amt
    cdef public object swarm_i
    cdef public object cwinner
    cdef public object cprev
    cdef public object pd_forced
    cdef public tuple _sup
