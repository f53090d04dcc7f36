import sqlalchemy
engine = sqlalchemy.create_engine("sqlite://")
with engine.connect() as connection:
    print(connection.execute(sqlalchemy.text("select 1")).scalar())
