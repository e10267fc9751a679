"""Digging for Dinos: paleontologists collect fossil tiles to complete dinosaurs."""
