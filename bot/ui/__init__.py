"""Shared Discord components: DynamicItem routing, the presenter, card pictures, errors."""
