# For the compiled build: the `s: "SolarState"` annotations in resolve.py become the extension type.
from cardsmith.games.solar_empires.state cimport SolarState
