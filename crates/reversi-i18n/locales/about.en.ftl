# The /about page (issue 55): the history of the game, Reversi and Othello, the variants, the
# world champions, computers, sources. about.ru.ftl has the same messages. Facts come only from
# the project's Russian source texts (seeds 000–004) and RULES.md §4–§5, plus Logistello's 6–0
# (August 1997) and the trademark note of seed 003. One line per message; the only placeable is
# the variable value in about-book-value.

about-title = About the game
about-intro = Reversi, also known as Othello, is a strategy game for two players on an 8×8 board with 64 discs, black on one side and white on the other. The rules take a minute to learn. This page tells where the game comes from, how Reversi and Othello differ, where the variants on this site come from, who the world champions were and what computers have found out about the game.

about-history-title = History
about-history-p1 = Reversi comes from Britain in the late nineteenth century: our sources date its invention to 1880 or to the 1880s. The name comes from the English verb “to reverse”: a disc that is surrounded is turned over and changes colour, and in one game a disc may pass from player to player many times. In its day the game was very popular.
about-history-p2 = The old rules were not quite today’s. Under the rules of 1876 described in one of our sources, the game began on an empty board: each player’s first two moves went into the four centre squares, in any order, and flipped nothing, so the opening position was not fixed. White moved first, and each player had a supply of discs of their own and could not borrow from the opponent. On this site they are the Reversi (1880) variant, where White may move first as of old, or Black as today.
about-history-p3 = Later the game fell out of fashion and was forgotten. It was revived in Japan, where in 1971 it became popular again under the name Othello. By the end of the 1970s the craze had swept Japan and then the rest of the world.
about-history-p4 = The first world championship was held in 1977 in Monte Carlo, only six years after the revival, and world championships have been held regularly ever since. All international tournaments are played by the Othello rules. Besides the world championships, there are regional competitions too.

about-names-title = Reversi or Othello?
about-names-p1 = Today Reversi and Othello are one game with the same rules. Othello fixed the start: the four centre squares hold two discs of each colour in a chequered pattern (black on d5 and e4, white on d4 and e5), and Black moves first, where old Reversi had White first. The name Othello alludes to Shakespeare’s play: according to one of our sources, Hasegawa, who rediscovered the game in Japan, was reminded of the tragedy by its treacherous traps and sudden turns.
about-names-p2 = Box editions have their own details. In the Ravensburger edition the discs are gold instead of white: two gold and two black discs start in the centre, gold moves first, and if both players end with the same number of discs, the player who moved second wins. On this site a tie is a draw in every variant.

about-variants-title = Variants
about-variants-p1 = Besides standard Othello, the site offers variants from our sources. On a square board of another size (4×4 to 16×16 here) the rules are the same; one source starts such games with each colour’s discs side by side, not chequered, and the site offers that start too. Boards smaller than 8×8 are solved: with perfect play the second player wins. Grand Othello is 10×10. Eight Stars (“Othello 8Stars”) is 10×10 with three squares cut from each corner: eight corners instead of four, hence the name.
about-variants-p2 = In Black Hole one square, chosen at random at the start, is a black hole: no one may play there, and discs on one side of it cannot capture discs on the other. In Anti-Othello the player with fewer discs wins. XOT is ordinary Othello that starts from a balanced random opening of 8 moves instead of the standard start; the openings are chosen in advance so that neither side begins with an advantage. Reversi (1880) plays the old rules described above.

about-champions-title = World champions
about-champions-p1 = World championships have been held since 1977. The table below lists the world champions and the runners-up as our source gives them, from 1977 to 2013, where its list ends; the names are spelled as in the source. The team column gives the country of the winning team, from 1987 on.
about-col-year = Year
about-col-place = Place
about-col-champion = Champion
about-col-country = Country
about-col-team = Team
about-col-runner-up = Runner-up

about-computers-title = Computers
about-computers-p1 = Reversi has long attracted programmers. At the first Computer Olympiad, held in London in 1989, the Reversi tournament drew more programs than any other: 15, from different countries. In the late 1980s Kai-Fu Lee and Sanjoy Mahajan wrote BILL, a program that learned by Bayesian methods and was stronger than earlier programs. Today good programs beat even human champions without much trouble, with alpha-beta pruning and large databases of played games.
about-computers-p2 = In August 1997 the program Logistello, written by Michael Buro, beat the world champion Takeshi Murakami 6–0. The game has about 10²⁸ positions and about 10⁵⁸ possible games.
about-computers-p3 = In 2023 Hiroki Takizawa showed that the standard 8×8 game is a draw when both sides play perfectly (arXiv 2310.19387). Smaller boards were solved long before: on 6×6, White, the second player, wins 20–16 with perfect play (Feinstein, 1993).
about-book-value = This site’s own opening book values the start position at { $value } for Black, as a disc difference (0 means a draw under best play).

about-sources-title = Sources
about-sources-p1 = This page is based on the Russian-language source texts collected for this project — articles on the game’s history and rules, a Wikipedia-style article with its references and the rules of a box edition — and on the project’s rules document, RULES.md, which decides what the site plays where the sources disagree. The solved boards are from Takizawa (2023) and Feinstein (1993).
about-trademark = Othello is a registered trademark of its owner; this site is independent and not affiliated with or endorsed by the trademark holder.
