"""Server tournaments (docs/tournaments.md): the pure rules are in
:mod:`tamalou.core.tournament`; here, their storage (:mod:`.store`), their life over the
table service (:mod:`.runner`) and their Discord side (:mod:`.commands`)."""
