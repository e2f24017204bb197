"""Club nights' pages: their views add their routes to the clubs blueprint (`web/clubs`).

planning  tonight's tables seated from the members present (issue 29), nothing saved
hub       the club's nights (in progress, open a night, past) and a new night's form
pages     a club night kept: its page, its rounds, players come and gone, its board, live
checkin   players checking themselves in from their phone, and an organiser's undo
exports   a club night's results as CSV
cards     a club night's movement cards, to print
links     a night's read-only link (`/n/<secret>`): its board for the hall's TV
"""
