"""DIG: dogs carry bones to bowls; a bowl's place in the yard sets its points."""
