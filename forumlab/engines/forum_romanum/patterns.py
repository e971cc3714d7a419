"""The region patterns of Forum Romanum's region-table evaluation (pure Python: model
files are checked against this shape without compiling anything; the compiled lookup is
:mod:`.pattern_kernels`; docs/learning.md, "Region tables (Forum Romanum)").

A region-table model replaces the hand formula of each open region by a learned table:
colour ``k``'s estimate is its score plus, for every open region ``r``, the table's entry
at the pattern of ``r`` seen from ``k``. One table is shared by every region of a class
(weight sharing), and the pattern's axes are, in index order:

- the region's class: 0 the 7-cell lines (rows, columns, diagonals), 1 the 6-cell
  sections, 2 the 8-cell ones, 3 the 9-cell centre;
- ``k``'s pieces in the region, the most and the fewest any other colour has there
  (each clipped at 4);
- the region's empty cells (clipped at 3);
- how many seats move before ``k``'s seat does (0: it is to move; clipped at 2).
"""
AXES = (("class", 4), ("mine", 5), ("best_other", 5), ("fewest_other", 5), ("empty", 4), ("tempo", 3))
TABLE_SHAPE = tuple(size for _, size in AXES)
TABLE_SIZE = 1
for _, _size in AXES:
    TABLE_SIZE *= _size
COUNT_CLIP = 4
EMPTY_CLIP = 3
TEMPO_CLIP = 2
# region class by region size: 7 (the lines), 6, 8 and 9 (the sections)
CLASS_OF_SIZE = {7: 0, 6: 1, 8: 2, 9: 3}
