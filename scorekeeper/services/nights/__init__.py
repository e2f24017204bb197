"""Club nights' room: a night planned, kept, seated, played, shown and exported.

planning        tonight's tables seated from the members present, nothing saved
play            a night opened, players come late or gone early, ended
rounds          each round seated with its tables' games, or drawn again
seating         what the seating engine is asked, and its seed for each draw
pairs           fixed partners' pairs as a night keeps them
partners        what a night's pages say of its partners
groups          the groups earlier nights this season seated
length          how many rounds a night plans when its form leaves them blank
schedule_words  what a night's page says of its schedule
checkin         players checking themselves in from their own phone
place           where a game sits in a night, and where its players go next
board           what a night's board shows, and its version
ranking         how a night ranks its players
results         a club's nights as its records keep them
hub             a club's nights in one place
tonight         the night in progress, as a game's page names it
cards           movement cards
export          a night's results as CSV
links           a night's read-only link (`/n/<secret>`)
"""
