"""Conspiracy events (SPEC section 5, CJ-1..CJ-8) and the Group Game Draft (CJ-7).

The format's rules in one folder: its state (``state``), commands (``commands``), events
(``events``) and play (``play``: set-up, decide, apply and describe of each event, and its
``RULES`` value).  Importing the package imports none of them."""
