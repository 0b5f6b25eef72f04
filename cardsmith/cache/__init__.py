"""Everything kept to skip or speed up work: stamps, kept files and skip rules, behind one switch
(`CARDSMITH_NO_CACHE=1` turns every cache off)."""
