"""Necromancer / Minion EDH (SPEC section 4, NC-1..NC-7).

The format's rules in one folder: its state (``state``), commands (``commands``), events
(``events``) and play (``play``: set-up, decide, apply and describe of each event, and its
``RULES`` value).  Importing the package imports none of them."""
