"""Print: imposition as pure geometry, the PDF writer, paper, calibration and print-shop profiles."""
