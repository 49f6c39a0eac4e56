"""The rules: the table and life every game has, the parts every game has (dice, the clock,
the counters), one package per format, and ``registry`` (a part as a value, and a game's rules
built from parts).  The gadget's list of parts and its game are ``device.game``.  Importing this
package imports none of them."""
